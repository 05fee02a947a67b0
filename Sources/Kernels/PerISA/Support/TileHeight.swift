/// The rows a micro-kernel computes, as a type so that each height is its own specialisation:
/// a tile of at most four rows takes the four-row code and does half the work of an
/// eight-row tile whose missing rows repeat the first.
protocol TileHeight { static var rows: Int { get } }
enum EightRows: TileHeight { static var rows: Int { 8 } }
enum SevenRows: TileHeight { static var rows: Int { 7 } }
enum FourRows: TileHeight { static var rows: Int { 4 } }

/// The panels a multi-panel micro-kernel tile computes, as a type like ``TileHeight``: the
/// three-panel tile's third accumulators fold away in the two-panel specialisation.
protocol TileWidth { static var panels: Int { get } }
enum TwoPanels: TileWidth { static var panels: Int { 2 } }
enum ThreePanels: TileWidth { static var panels: Int { 3 } }

/// How a run of rows splits into the tiles of an eight-row micro-kernel: `eights` tiles of 8
/// rows, then `sevens` tiles of 7, then the rest (fewer than 8 rows) in one last tile.
///
/// Seven-row tiles absorb the remainder that eight-row tiles leave: any count from 42 on is a
/// sum of eights and sevens, so a 7x7 map's 49 pixels run as seven full tiles of 7 where eights
/// computed 52 rows (six tiles and a four-row one), about 6% of waste on every layer of a
/// network's last stage. A remainder of 4 already fills a four-row tile and stays one.
struct RowTiling {
    let rows: Int
    let eights: Int
    let sevens: Int

    init(rows: Int) {
        self.rows = rows
        let sevens = (8 - rows % 8) % 8
        if rows % 8 == 4 || 7 * sevens > rows {
            (eights, self.sevens) = (rows / 8, 0)
        } else {
            (eights, self.sevens) = ((rows - 7 * sevens) / 8, sevens)
        }
    }

    /// The height of the tile after the eights and sevens: 8 for more than 4 rows left, 4 for
    /// 1 to 4, 0 for none.
    private var lastHeight: Int {
        let rest = rows &- eights &* 8 &- sevens &* 7
        return rest == 0 ? 0 : rest > 4 ? 8 : 4
    }

    /// The rows the tiles compute, the repeated ones of a short last tile included.
    var computedRows: Int { eights &* 8 &+ sevens &* 7 &+ lastHeight }

    /// The height (8, 7 or 4) of the tile starting at row `r`, the sum of the heights before
    /// it. The last tile's rows may be fewer than its height.
    @inline(__always)
    func height(at r: Int) -> Int {
        let sevensStart = eights &* 8
        if r < sevensStart { return 8 }
        if r < sevensStart &+ sevens &* 7 { return 7 }
        return lastHeight
    }

    /// The rows of the tile of height `height` starting at row `r`: the height, or the rows
    /// left for the last tile. Written as a comparison: the generic `Swift.min` stayed a call
    /// in the large tile functions.
    @inline(__always)
    func rows(at r: Int, height: Int) -> Int {
        let left = rows &- r
        return left < height ? left : height
    }
}

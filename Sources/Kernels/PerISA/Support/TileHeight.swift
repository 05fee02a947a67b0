/// The rows a micro-kernel computes, as a type so that each height is its own specialisation:
/// a tile of at most four rows (the last of a 7x7 map's 49 pixels, say) takes the four-row
/// code and does half the work of an eight-row tile whose missing rows repeat the first.
protocol TileHeight { static var rows: Int { get } }
enum EightRows: TileHeight { static var rows: Int { 8 } }
enum FourRows: TileHeight { static var rows: Int { 4 } }

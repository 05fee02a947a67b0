import Testing
@testable import Kernels

/// The split of a run of rows into micro-kernel tiles: every row in exactly one tile, each
/// tile 8, 7 or (last) 4 rows high, and from 42 rows on no row computed twice.
@Suite struct RowTilingTests {
    @Test func tilesCoverEveryRowOnce() {
        for rows in 0...300 {
            let tiling = RowTiling(rows: rows)
            var r = 0, computed = 0, heights: [Int] = []
            while r < rows {
                let height = tiling.height(at: r)
                heights.append(height)
                computed += height
                r += Swift.min(height, rows - r)
            }
            #expect(r == rows)
            #expect(tiling.computedRows == computed, "\(rows) rows: \(heights)")
            #expect(heights.allSatisfy { [8, 7, 4].contains($0) }, "\(rows): \(heights)")
            #expect(heights.dropLast().allSatisfy { $0 != 4 }, "\(rows): \(heights)")
            if rows >= 42 { #expect(computed == rows, "\(rows) rows: \(heights)") }
            #expect(computed - rows <= 3, "\(rows) rows: \(heights)")
        }
        #expect(RowTiling(rows: 49).sevens == 7)
    }
}

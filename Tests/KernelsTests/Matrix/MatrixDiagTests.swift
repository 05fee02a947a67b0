import Testing
import Kernels

@Suite struct MatrixDiagTests {
    @Test func diagBuildsDiagonalMatrices() {
        let x = TestBuffer<Float>([1, 2, 3, 4, 5, 6]) // 2 batches of 3
        let out = TestBuffer(repeating: Float.nan, count: 18)
        MatrixDiag.diag(input: x.raw, batches: 2, n: 3, elementSize: 4, output: out.mutableRaw)
        for b in 0..<2 {
            for i in 0..<3 {
                for j in 0..<3 {
                    #expect(out.array[(b * 3 + i) * 3 + j] == (i == j ? x.array[b * 3 + i] : 0))
                }
            }
        }
    }

    @Test(arguments: [(2, 3), (3, 2), (2, 2), (0, 3)])
    func setDiagReplacesOnlyTheMainDiagonal(rows: Int, columns: Int) {
        let batches = 2, length = min(rows, columns)
        let x = TestBuffer<Int16>((0..<batches * rows * columns).map { Int16($0) })
        let d = TestBuffer<Int16>((0..<batches * length).map { Int16(-1 - $0) })
        let out = TestBuffer(repeating: Int16(99), count: batches * rows * columns)
        MatrixDiag.setDiag(input: x.raw, diagonal: d.raw, batches: batches, rows: rows, columns: columns, elementSize: 2,
                           output: out.mutableRaw)
        for b in 0..<batches {
            for i in 0..<rows {
                for j in 0..<columns {
                    let flat = (b * rows + i) * columns + j
                    #expect(out.array[flat] == (i == j ? d.array[b * length + i] : x.array[flat]))
                }
            }
        }
    }
}

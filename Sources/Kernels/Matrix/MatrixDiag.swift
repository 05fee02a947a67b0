/// MATRIX_DIAG and MATRIX_SET_DIAG over batches of matrices. Elements are moved as bytes, so
/// one kernel serves every element type (a zero bit pattern is zero in all of them).
public enum MatrixDiag {
    /// MATRIX_DIAG: each length-`n` vector of `input` becomes an `n`x`n` matrix with the
    /// vector on its main diagonal and zeros elsewhere.
    public static func diag(input: UnsafeRawPointer, batches: Int, n: Int, elementSize: Int,
                            output: UnsafeMutableRawPointer) {
        output.initializeMemory(as: UInt8.self, repeating: 0, count: batches * n * n * elementSize)
        for b in 0..<batches {
            for i in 0..<n {
                (output + ((b * n + i) * n + i) * elementSize)
                    .copyMemory(from: input + (b * n + i) * elementSize, byteCount: elementSize)
            }
        }
    }

    /// MATRIX_SET_DIAG: copies each `rows`x`columns` matrix of `input` and replaces its main
    /// diagonal with the matching `min(rows, columns)` values of `diagonal`.
    public static func setDiag(input: UnsafeRawPointer, diagonal: UnsafeRawPointer, batches: Int, rows: Int, columns: Int,
                               elementSize: Int, output: UnsafeMutableRawPointer) {
        let matrixBytes = rows * columns * elementSize
        let length = Swift.min(rows, columns)
        for b in 0..<batches {
            let dst = output + b * matrixBytes
            if dst != UnsafeMutableRawPointer(mutating: input + b * matrixBytes) {
                dst.copyMemory(from: input + b * matrixBytes, byteCount: matrixBytes)
            }
            for i in 0..<length {
                (dst + (i * columns + i) * elementSize)
                    .copyMemory(from: diagonal + (b * length + i) * elementSize, byteCount: elementSize)
            }
        }
    }
}

/// A row-major 4x4 float matrix multiplied the way MediaPipe's `Mat4` is: each entry a float
/// sum from zero over k ascending, so that the results match its kernels bit for bit (with
/// the same `sinf`/`cosf`).
struct Matrix4: Equatable {
    var entries: SIMD16<Float>

    init(_ entries: SIMD16<Float>) {
        self.entries = entries
    }

    static let identity = Matrix4(SIMD16(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))

    subscript(row: Int, column: Int) -> Float {
        get { entries[row * 4 + column] }
        set { entries[row * 4 + column] = newValue }
    }

    static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
        var result = Matrix4(SIMD16())
        for r in 0..<4 {
            for c in 0..<4 {
                var sum: Float = 0
                for k in 0..<4 { sum += a[r, k] * b[k, c] }
                result[r, c] = sum
            }
        }
        return result
    }

    /// Translation by (x, y).
    static func shift(_ x: Float, _ y: Float) -> Matrix4 {
        Matrix4(SIMD16(1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, 0, 0, 0, 0, 1))
    }
}

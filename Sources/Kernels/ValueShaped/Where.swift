/// WHERE with one input: the coordinates of every non-zero (true) element, in row-major order,
/// as an `[n, rank]` matrix.
public enum Where {
    /// The number of non-zero elements: the first dimension of the output.
    public static func count<T: Equatable & Numeric>(input: UnsafePointer<T>, elementCount: Int) -> Int {
        var n = 0
        for i in 0..<elementCount where input[i] != .zero { n += 1 }
        return n
    }

    /// Writes the coordinates of the non-zero elements of `input` (shape `shape`) into
    /// `output`, which holds `count(...) * shape.count` elements.
    public static func run<T: Equatable & Numeric, Index: FixedWidthInteger>(input: UnsafePointer<T>, shape: [Int],
                                                                            output: UnsafeMutablePointer<Index>) {
        let total = Shape.elementCount(shape)
        let strides = Shape.strides(shape)
        var row = 0
        for flat in 0..<total where input[flat] != .zero {
            var rest = flat
            for d in 0..<shape.count {
                output[row * shape.count + d] = Index(truncatingIfNeeded: rest / strides[d])
                rest %= strides[d]
            }
            row += 1
        }
    }
}

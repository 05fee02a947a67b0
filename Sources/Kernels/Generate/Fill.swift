/// FILL and ZEROS_LIKE: a tensor with every element set to one value.
public enum Fill {
    /// Sets `count` elements of `output` to `value`.
    public static func run<T>(value: T, count: Int, output: UnsafeMutablePointer<T>) {
        output.update(repeating: value, count: count)
    }

    /// Zeroes `byteCount` bytes (ZEROS_LIKE: a zero bit pattern is zero in every numeric type).
    public static func zero(byteCount: Int, output: UnsafeMutableRawPointer) {
        output.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
    }
}

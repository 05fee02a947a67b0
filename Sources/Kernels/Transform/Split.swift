/// SPLIT, SPLIT_V and UNPACK on any element type.
public enum Split {
    /// Cuts `input` along `axis` into pieces of `sizes[i]` (summing to the axis extent).
    public static func apply(input: UnsafeRawPointer, inputShape: [Int], axis: Int, sizes: [Int],
                             elementSize: Int, outputs: UnsafeBufferPointer<UnsafeMutableRawPointer>) {
        let outer = Shape.product(inputShape, 0..<axis)
        let inner = Shape.product(inputShape, (axis + 1)..<inputShape.count) * elementSize
        var src = input
        for o in 0..<outer {
            for (i, size) in sizes.enumerated() where size * inner > 0 {
                outputs[i].advanced(by: o * size * inner).copyMemory(from: src, byteCount: size * inner)
                src += size * inner
            }
        }
    }

    /// UNPACK: splits `input` along `axis` into `inputShape[axis]` tensors with that axis removed.
    public static func unpack(input: UnsafeRawPointer, inputShape: [Int], axis: Int,
                              elementSize: Int, outputs: UnsafeBufferPointer<UnsafeMutableRawPointer>) {
        let outer = Shape.product(inputShape, 0..<axis)
        let inner = Shape.product(inputShape, (axis + 1)..<inputShape.count) * elementSize
        guard inner > 0 else { return }
        var src = input
        for o in 0..<outer {
            for output in outputs {
                output.advanced(by: o * inner).copyMemory(from: src, byteCount: inner)
                src += inner
            }
        }
    }
}

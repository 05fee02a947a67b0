/// CONCATENATION and PACK on any element type.
public enum Concatenation {
    /// Joins `inputs` (same rank, equal except along `axis`) along `axis` (non-negative).
    public static func apply(inputs: [UnsafeRawPointer], inputShapes: [[Int]], axis: Int,
                             elementSize: Int, output: UnsafeMutableRawPointer) {
        guard let first = inputShapes.first else { return }
        let outer = Shape.product(first, 0..<axis)
        let chunks = inputShapes.map { Shape.product($0, axis..<$0.count) * elementSize }
        var dst = output
        for o in 0..<outer {
            for (i, input) in inputs.enumerated() where chunks[i] > 0 {
                dst.copyMemory(from: input + o * chunks[i], byteCount: chunks[i])
                dst += chunks[i]
            }
        }
    }

    /// PACK: stacks `inputs`, all of shape `inputShape`, along a new axis `axis`
    /// (`0...inputShape.count`).
    public static func pack(inputs: [UnsafeRawPointer], inputShape: [Int], axis: Int,
                            elementSize: Int, output: UnsafeMutableRawPointer) {
        var expanded = inputShape
        expanded.insert(1, at: axis)
        apply(inputs: inputs, inputShapes: [[Int]](repeating: expanded, count: inputs.count), axis: axis,
              elementSize: elementSize, output: output)
    }
}

/// SPLIT, SPLIT_V and UNPACK on any element type.
public enum Split {
    /// Cuts `input` along `axis` into pieces of `sizes[i]` (summing to the axis extent).
    public static func apply(input: UnsafeRawPointer, inputShape: [Int], axis: Int, sizes: [Int],
                             elementSize: Int, outputs: [UnsafeMutableRawPointer]) {
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
                              elementSize: Int, outputs: [UnsafeMutableRawPointer]) {
        apply(input: input, inputShape: inputShape, axis: axis,
              sizes: [Int](repeating: 1, count: inputShape[axis]), elementSize: elementSize, outputs: outputs)
    }
}

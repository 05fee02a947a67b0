/// TRANSPOSE on any element type: output axis `i` is input axis `permutation[i]`.
public enum Transpose {
    /// The output shape for a permutation (which prepare checks is a permutation of the axes).
    public static func outputShape(inputShape: [Int], permutation: [Int]) -> [Int] {
        permutation.map { inputShape[$0] }
    }

    /// Copies `input` into `output` with its axes permuted.
    public static func apply(input: UnsafeRawPointer, inputShape: [Int], permutation: [Int],
                             elementSize: Int, output: UnsafeMutableRawPointer) {
        let strides = Shape.strides(inputShape)
        let outShape = outputShape(inputShape: inputShape, permutation: permutation)
        let tables = outShape.indices.map { d in (0..<outShape[d]).map { $0 * strides[permutation[d]] } }
        IndexMapCopy.run(input: input, output: output, outputShape: outShape, tables: tables, elementSize: elementSize)
    }
}

/// DEPTH_TO_SPACE and SPACE_TO_DEPTH (NHWC, TFLite's DCR channel order): both are a transpose
/// of a 6-D view, `[b, h, w, by, bx, c]` <-> `[b, h, by, w, bx, c]`.
public enum DepthSpace {
    /// DEPTH_TO_SPACE: `output[b, h*bs + by, w*bs + bx, c] = input[b, h, w, (by*bs + bx)*C + c]`.
    public static func depthToSpace(input: UnsafeRawPointer, inputShape: NHWC, blockSize: Int,
                                    elementSize: Int, output: UnsafeMutableRawPointer) {
        let c = inputShape.channels / (blockSize * blockSize)
        Transpose.apply(input: input, inputShape: [inputShape.batch, inputShape.height, inputShape.width, blockSize, blockSize, c],
                        permutation: [0, 1, 3, 2, 4, 5], elementSize: elementSize, output: output)
    }

    /// SPACE_TO_DEPTH, the inverse of ``depthToSpace(input:inputShape:blockSize:elementSize:output:)``.
    public static func spaceToDepth(input: UnsafeRawPointer, inputShape: NHWC, blockSize: Int,
                                    elementSize: Int, output: UnsafeMutableRawPointer) {
        let h = inputShape.height / blockSize, w = inputShape.width / blockSize
        Transpose.apply(input: input, inputShape: [inputShape.batch, h, blockSize, w, blockSize, inputShape.channels],
                        permutation: [0, 1, 3, 2, 4, 5], elementSize: elementSize, output: output)
    }
}

/// DEPTH_TO_SPACE and SPACE_TO_DEPTH (NHWC, TFLite's DCR channel order): both are a transpose
/// of a 6-D view, `[b, h, w, by, bx, c]` <-> `[b, h, by, w, bx, c]`.
public enum DepthSpace {
    /// DEPTH_TO_SPACE: `output[b, h*bs + by, w*bs + bx, c] = input[b, h, w, (by*bs + bx)*C + c]`.
    public static func planDepthToSpace(inputShape: NHWC, blockSize: Int, elementSize: Int) -> IndexMapCopy {
        let c = inputShape.channels / (blockSize * blockSize)
        return Transpose.plan(inputShape: [inputShape.batch, inputShape.height, inputShape.width, blockSize, blockSize, c],
                              permutation: [0, 1, 3, 2, 4, 5], elementSize: elementSize)
    }

    /// SPACE_TO_DEPTH, the inverse of ``planDepthToSpace(inputShape:blockSize:elementSize:)``.
    public static func planSpaceToDepth(inputShape: NHWC, blockSize: Int, elementSize: Int) -> IndexMapCopy {
        let h = inputShape.height / blockSize, w = inputShape.width / blockSize
        return Transpose.plan(inputShape: [inputShape.batch, h, blockSize, w, blockSize, inputShape.channels],
                              permutation: [0, 1, 3, 2, 4, 5], elementSize: elementSize)
    }

    /// DEPTH_TO_SPACE in one call.
    public static func depthToSpace(input: UnsafeRawPointer, inputShape: NHWC, blockSize: Int,
                                    elementSize: Int, output: UnsafeMutableRawPointer) {
        planDepthToSpace(inputShape: inputShape, blockSize: blockSize, elementSize: elementSize).run(input: input, output: output)
    }

    /// SPACE_TO_DEPTH in one call.
    public static func spaceToDepth(input: UnsafeRawPointer, inputShape: NHWC, blockSize: Int,
                                    elementSize: Int, output: UnsafeMutableRawPointer) {
        planSpaceToDepth(inputShape: inputShape, blockSize: blockSize, elementSize: elementSize).run(input: input, output: output)
    }
}

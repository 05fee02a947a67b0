/// GATHER and GATHER_ND on any element type, with int32 or int64 indices. Indices are data,
/// so they are checked here: an out-of-range index throws instead of reading outside the input.
public enum Gather {
    /// The GATHER output shape: `input[..<axis] + indices[batchDims...] + input[(axis+1)...]`.
    public static func outputShape(inputShape: [Int], indicesShape: [Int], axis: Int, batchDims: Int) -> [Int] {
        Array(inputShape[..<axis]) + Array(indicesShape[batchDims...]) + Array(inputShape[(axis + 1)...])
    }

    /// GATHER with int32 indices (`axis` and `batchDims` already non-negative, `batchDims <= axis`).
    public static func apply(input: UnsafeRawPointer, inputShape: [Int], indices: UnsafePointer<Int32>,
                             indicesShape: [Int], axis: Int, batchDims: Int, elementSize: Int,
                             output: UnsafeMutableRawPointer) throws(KernelError) {
        try gather(input, inputShape, indices, indicesShape, axis, batchDims, elementSize, output)
    }

    /// GATHER with int64 indices.
    public static func apply(input: UnsafeRawPointer, inputShape: [Int], indices: UnsafePointer<Int64>,
                             indicesShape: [Int], axis: Int, batchDims: Int, elementSize: Int,
                             output: UnsafeMutableRawPointer) throws(KernelError) {
        try gather(input, inputShape, indices, indicesShape, axis, batchDims, elementSize, output)
    }

    static func gather<Index: BinaryInteger>(_ input: UnsafeRawPointer, _ inputShape: [Int], _ indices: UnsafePointer<Index>,
                                             _ indicesShape: [Int], _ axis: Int, _ batchDims: Int, _ elementSize: Int,
                                             _ output: UnsafeMutableRawPointer) throws(KernelError) {
        let batch = Shape.product(inputShape, 0..<batchDims)
        let outer = Shape.product(inputShape, batchDims..<axis)
        let axisSize = inputShape[axis]
        let inner = Shape.product(inputShape, (axis + 1)..<inputShape.count) * elementSize
        let coords = Shape.product(indicesShape, batchDims..<indicesShape.count)
        for b in 0..<batch {
            for c in 0..<coords {
                let position = b * coords + c
                let raw = indices[position]
                guard raw >= 0 && raw < axisSize else {
                    throw .indexOutOfRange(index: Int(clamping: raw), bound: axisSize, position: position)
                }
            }
        }
        for b in 0..<batch {
            for o in 0..<outer {
                for c in 0..<coords {
                    let idx = Int(indices[b * coords + c])
                    let src = input + ((b * outer + o) * axisSize + idx) * inner
                    let dst = output + ((b * outer + o) * coords + c) * inner
                    dst.copyMemory(from: src, byteCount: inner)
                }
            }
        }
    }

    /// The GATHER_ND output shape: `indices[..<last] + params[indices.last...]`.
    public static func ndOutputShape(paramsShape: [Int], indicesShape: [Int]) -> [Int] {
        let depth = indicesShape.last ?? 0
        return Array(indicesShape.dropLast()) + Array(paramsShape[depth...])
    }

    /// GATHER_ND with int32 indices: each length-`indicesShape.last` index tuple selects a
    /// slice of `params`.
    public static func nd(params: UnsafeRawPointer, paramsShape: [Int], indices: UnsafePointer<Int32>,
                          indicesShape: [Int], elementSize: Int, output: UnsafeMutableRawPointer) throws(KernelError) {
        try gatherND(params, paramsShape, indices, indicesShape, elementSize, output)
    }

    /// GATHER_ND with int64 indices.
    public static func nd(params: UnsafeRawPointer, paramsShape: [Int], indices: UnsafePointer<Int64>,
                          indicesShape: [Int], elementSize: Int, output: UnsafeMutableRawPointer) throws(KernelError) {
        try gatherND(params, paramsShape, indices, indicesShape, elementSize, output)
    }

    static func gatherND<Index: BinaryInteger>(_ params: UnsafeRawPointer, _ paramsShape: [Int], _ indices: UnsafePointer<Index>,
                                               _ indicesShape: [Int], _ elementSize: Int,
                                               _ output: UnsafeMutableRawPointer) throws(KernelError) {
        let depth = indicesShape.last ?? 0
        let tuples = Shape.product(indicesShape, 0..<Swift.max(0, indicesShape.count - 1))
        let strides = Shape.strides(paramsShape)
        let slice = Shape.product(paramsShape, depth..<paramsShape.count) * elementSize
        for t in 0..<tuples {
            var offset = 0
            for d in 0..<depth {
                let raw = indices[t * depth + d]
                guard raw >= 0 && raw < paramsShape[d] else {
                    throw .indexOutOfRange(index: Int(clamping: raw), bound: paramsShape[d], position: t * depth + d)
                }
                offset += Int(raw) * strides[d]
            }
            (output + t * slice).copyMemory(from: params + offset * elementSize, byteCount: slice)
        }
    }
}

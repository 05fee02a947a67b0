import Kernels

/// Ops that move elements without changing them: concatenation and splitting, slicing,
/// gathering, padding, transposition and its relatives. Their kernels work on bytes, so one
/// registration covers every fixed-size element type.
extension OpRegistry {
    mutating func registerDataMovementOps() {
        let all: [DataType] = [.float32, .float16, .int8, .uInt8, .int16, .int32, .int64, .bool]
        register(.concatenation, types: all + [.int4], prepareConcatenation)
        register(.pack, types: all, preparePack)
        register(.unpack, types: all, prepareUnpack)
        register(.split, types: all, prepareSplit)
        register(.splitV, types: all, prepareSplitV)
        register(.slice, types: all + [.int4], prepareSlice)
        register(.stridedSlice, types: all, prepareStridedSlice)
        register(.gather, types: all + [.int4], prepareGather)
        register(.gatherNd, types: all, prepareGatherND)
        register(.tile, types: all, prepareTile)
        register(.broadcastTo, types: all, prepareBroadcastTo)
        register(.pad, types: all, preparePad)
        register(.padv2, types: all, preparePad)
        register(.mirrorPad, types: all, prepareMirrorPad)
        register(.transpose, types: all, prepareTranspose)
        register(.depthToSpace, types: all, prepareDepthToSpace)
        register(.spaceToDepth, types: all, prepareSpaceToDepth)
        register(.spaceToBatchNd, types: all, prepareSpaceToBatch)
        register(.batchToSpaceNd, types: all, prepareBatchToSpace)
        register(.reverseV2, types: all, prepareReverse)
    }
}

extension PrepareContext {
    /// Bytes per element of `t`; throws for types without a fixed element size.
    func elementSize(_ t: TensorInfo, role: String) throws(InterpreterError) -> Int {
        guard let size = t.type.byteSize, t.type != .string else {
            throw unsupported("\(role) has type \(t.type), which has no fixed element size")
        }
        return size
    }

    /// `axis` made non-negative for a tensor of rank `rank` (negative values count from the
    /// end); throws when it lies outside `-rank..<rank`.
    func normalizedAxis(_ axis: Int, rank: Int, what: String = "axis") throws(InterpreterError) -> Int {
        let a = axis < 0 ? axis + rank : axis
        guard a >= 0, a < rank else { throw invalid("\(what) \(axis) out of range for rank \(rank)") }
        return a
    }

    /// A constant `[rank, 2]` integer tensor of before/after amounts (PAD, MIRROR_PAD, the
    /// space-to-batch paddings and crops), each required to be non-negative.
    func constantPairs(input i: Int, rows: Int, what: String) throws(InterpreterError) -> [PadAmount] {
        let t = try input(i)
        guard t.shape == [rows, 2] else { throw invalid("\(what) must have shape [\(rows), 2], has \(t.shape)") }
        let v = try constantIntegers(input: i)
        var pairs: [PadAmount] = []
        for r in 0..<rows {
            guard v[2 * r] >= 0, v[2 * r + 1] >= 0 else {
                throw invalid("\(what) [\(v[2 * r]), \(v[2 * r + 1])] for axis \(r) must not be negative")
            }
            // Larger amounts (int64 paddings) could overflow the padded extent itself; no
            // tensor that large could be allocated anyway.
            guard v[2 * r] <= Int(Int32.max), v[2 * r + 1] <= Int(Int32.max) else {
                throw invalid("\(what) [\(v[2 * r]), \(v[2 * r + 1])] for axis \(r) are too large")
            }
            pairs.append(PadAmount(before: v[2 * r], after: v[2 * r + 1]))
        }
        return pairs
    }

    /// The NHWC extents of a rank-4 tensor.
    func nhwc(_ t: TensorInfo, role: String) throws(InterpreterError) -> NHWC {
        guard t.rank == 4 else { throw invalid("\(role) must have rank 4 (NHWC), has shape \(t.shape)") }
        return NHWC(batch: t.shape[0], height: t.shape[1], width: t.shape[2], channels: t.shape[3])
    }
}

/// The product of `values`, or nil on overflow, so shapes computed from model-supplied numbers
/// are checked before they size a tensor.
func checkedProduct(_ values: [Int]) -> Int? {
    var n = 1
    for v in values {
        let (p, o) = n.multipliedReportingOverflow(by: v)
        if o { return nil }
        n = p
    }
    return n
}

/// A kernel error raised at run time (an index read from a tensor), as the interpreter
/// reports it.
func invokeError(_ error: KernelError, node: Int, op: String) -> InterpreterError {
    .invokeFailed(node: node, op: op, reason: error.description)
}

import Kernels

extension PrepareContext {
    /// Input infos for indices `range`.
    func inputs(_ range: Range<Int>) throws(InterpreterError) -> [TensorInfo] {
        var result: [TensorInfo] = []
        for i in range { result.append(try input(i)) }
        return result
    }

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

    /// The NHWC extents of a rank-4 tensor.
    func nhwc(_ t: TensorInfo, role: String) throws(InterpreterError) -> NHWC {
        guard t.rank == 4 else { throw invalid("\(role) must have rank 4 (NHWC), has shape \(t.shape)") }
        return NHWC(batch: t.shape[0], height: t.shape[1], width: t.shape[2], channels: t.shape[3])
    }

    /// Resolves a possibly negative axis against `rank` (`-1` is the last axis).
    func resolveAxis(_ axis: Int, rank: Int, what: String = "axis") throws(InterpreterError) -> Int {
        let a = axis < 0 ? axis + rank : axis
        guard a >= 0, a < rank else { throw invalid("\(what) \(axis) is out of range for rank \(rank)") }
        return a
    }

    /// Input `i` as a table handle: a resource tensor of shape [1], as LiteRT requires.
    func tableHandle(_ i: Int) throws(InterpreterError) -> Int {
        let h = try input(i)
        guard h.type == .resource, h.shape == [1] else {
            throw invalid("input \(i) must be a resource of shape [1], is \(h.type) \(h.shape)")
        }
        return h.index
    }

    /// Requires `t` (named `role` in errors) to have `type` and, when given, `rank`.
    func requireSignal(_ t: TensorInfo, _ type: DataType, rank: Int? = nil, _ role: String) throws(InterpreterError) {
        guard t.type == type else { throw invalid("\(role) must be \(type.name), is \(t.type.name)") }
        if let rank, t.rank != rank { throw invalid("\(role) must have rank \(rank), has shape \(t.shape)") }
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

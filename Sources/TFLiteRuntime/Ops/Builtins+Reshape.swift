/// Ops that change a tensor's shape but not its bytes: RESHAPE, SQUEEZE, EXPAND_DIMS.
extension OpRegistry {
    mutating func registerReshapeOps() {
        let all: [DataType] = [.float32, .float16, .int8, .uint8, .int16, .int32, .int64, .bool]
        register(.reshape, types: all, prepareReshape)
        register(.squeeze, types: all, prepareSqueeze)
        register(.expandDims, types: all, prepareExpandDims)
    }
}

/// Copies the input's bytes to the output unchanged (the output's shape differs).
private func copyKernel(_ ctx: PrepareContext) throws(InterpreterError) -> NodeKernel {
    let input = try ctx.input(0), output = try ctx.output(0)
    let bytes = input.elementCount * (input.type.byteSize ?? 0)
    let from = input.index, to = output.index
    return { c in
        let src = c.raw(from), dst = c.raw(to)
        if src != dst && bytes > 0 { dst.copyMemory(from: src, byteCount: bytes) }
    }
}

private func prepareReshape(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...2, outputs: 1...1)
    let input = try ctx.input(0)
    var requested: [Int]
    if let shapeTensor = ctx.optionalInput(1), shapeTensor.rank == 1 {
        requested = try ctx.constantIntegers(input: 1)
    } else if case .reshapeOptions(let o)? = ctx.options {
        requested = o.newShape.map(Int.init)
    } else {
        requested = try ctx.output(0).shape
    }
    let known = requested.filter { $0 != -1 }
    guard requested.filter({ $0 == -1 }).count <= 1, known.allSatisfy({ $0 >= 0 }) else {
        throw ctx.invalid("new shape \(requested) may hold at most one -1 and no other negative extent")
    }
    let knownCount = known.reduce(1, *)
    if let wildcard = requested.firstIndex(of: -1) {
        guard knownCount > 0, input.elementCount % knownCount == 0 else {
            throw ctx.invalid("cannot reshape \(input.shape) to \(requested)")
        }
        requested[wildcard] = input.elementCount / knownCount
    }
    guard requested.reduce(1, *) == input.elementCount else {
        throw ctx.invalid("cannot reshape \(input.shape) (\(input.elementCount) elements) to \(requested)")
    }
    try ctx.setOutputShape(0, requested)
    return try copyKernel(ctx)
}

private func prepareSqueeze(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let input = try ctx.input(0)
    var axes: [Int] = []
    if case .squeezeOptions(let o)? = ctx.options { axes = o.squeezeDims.map(Int.init) }
    var drop = Set<Int>()
    if axes.isEmpty {
        drop = Set(input.shape.indices.filter { input.shape[$0] == 1 })
    } else {
        for a in axes {
            let axis = a < 0 ? a + input.rank : a
            guard axis >= 0, axis < input.rank, input.shape[axis] == 1 else {
                throw ctx.invalid("cannot squeeze axis \(a) of shape \(input.shape)")
            }
            drop.insert(axis)
        }
    }
    try ctx.setOutputShape(0, input.shape.indices.filter { !drop.contains($0) }.map { input.shape[$0] })
    return try copyKernel(ctx)
}

private func prepareExpandDims(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...1)
    let input = try ctx.input(0), axisTensor = try ctx.input(1)
    guard axisTensor.type == .int32 || axisTensor.type == .int64, axisTensor.elementCount == 1 else {
        throw ctx.invalid("axis must be one int32 or int64 value, is \(axisTensor.type) \(axisTensor.shape)")
    }
    /// The output shape for an axis value, or nil when it is out of range.
    let inputShape = input.shape
    func expanded(_ a: Int) -> [Int]? {
        let axis = a < 0 ? a + inputShape.count + 1 : a
        guard axis >= 0, axis <= inputShape.count else { return nil }
        var shape = inputShape
        shape.insert(1, at: axis)
        return shape
    }
    if axisTensor.isConstant {
        let a = try ctx.constantIntegers(input: 1)[0]
        guard let shape = expanded(a) else { throw ctx.invalid("axis \(a) out of range for rank \(input.rank)") }
        try ctx.setOutputShape(0, shape)
        return try copyKernel(ctx)
    }
    // The axis arrives at run time (a model input): the output shape is decided then.
    try ctx.setOutputDynamic(0)
    let from = input.index, to = try ctx.output(0).index, axisIndex = axisTensor.index, is64 = axisTensor.type == .int64
    let bytes = input.elementCount * (input.type.byteSize ?? 0), node = ctx.nodeIndex
    return { (c) throws(InterpreterError) in
        let a = is64 ? Int(truncatingIfNeeded: c.data(axisIndex, as: Int64.self).pointee) : Int(c.data(axisIndex, as: Int32.self).pointee)
        guard let shape = expanded(a) else {
            throw .invokeFailed(node: node, op: "EXPAND_DIMS", reason: "axis \(a) out of range for rank \(inputShape.count)")
        }
        let dst = try c.resize(to, to: shape)
        if bytes > 0 { dst.copyMemory(from: c.raw(from), byteCount: bytes) }
    }
}

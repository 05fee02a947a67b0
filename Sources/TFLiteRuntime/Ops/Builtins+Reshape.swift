/// Ops that change a tensor's shape but not its bytes: RESHAPE, SQUEEZE, EXPAND_DIMS.
extension OpRegistry {
    mutating func registerReshapeOps() {
        let all: [DataType] = [.float32, .float16, .int8, .uInt8, .int16, .int32, .int64, .bool]
        register(.reshape, types: all + [.int4], prepareReshape)
        register(.squeeze, types: all + [.int4], prepareSqueeze)
        register(.expandDims, types: all + [.int4], prepareExpandDims)
    }
}

/// The bytes `count` values of `type` take: two to a byte for packed INT4.
private func storedBytes(_ count: Int, _ type: DataType) -> Int {
    type == .int4 ? (count + 1) / 2 : count * (type.byteSize ?? 0)
}

/// Copies the input's bytes to the output unchanged (the output's shape differs).
private func copyKernel(_ ctx: PrepareContext) throws(InterpreterError) -> NodeKernel {
    let input = try ctx.input(0), output = try ctx.output(0)
    let bytes = storedBytes(input.elementCount, input.type)
    let from = input.index, to = output.index
    return { c in
        let src = c.raw(from), dst = c.raw(to)
        if src != dst && bytes > 0 { dst.copyMemory(from: src, byteCount: bytes) }
    }
}

private func prepareReshape(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...2, outputs: 1...1)
    let input = try ctx.input(0)
    let elements = input.elementCount
    var requested: [Int]
    if let shapeTensor = ctx.optionalInput(1), shapeTensor.rank == 1 {
        if !shapeTensor.isConstant && shapeTensor.elementCount > 0 {
            return try runtimeReshape(&ctx, shape: shapeTensor)
        }
        // An empty shape vector asks for a scalar whether or not it is stored as a constant.
        requested = shapeTensor.elementCount == 0 ? [] : try ctx.constantIntegers(input: 1)
    } else if case .reshapeOptions(let o)? = ctx.options {
        requested = o.newShape.map(Int.init)
    } else {
        requested = try ctx.output(0).shape
    }
    switch reshaped(elements, inputShape: input.shape, to: requested) {
    case .success(let shape): try ctx.setOutputShape(0, shape)
    case .failure(let reason): throw ctx.invalid(reason.message)
    }
    return try copyKernel(ctx)
}

/// RESHAPE to a shape computed by the graph (as models exported with dynamic batch do): the
/// output shape is decided at each invocation from the shape tensor's values.
private func runtimeReshape(_ ctx: inout PrepareContext, shape: TensorInfo) throws(InterpreterError) -> NodeKernel {
    guard shape.type == .int32 || shape.type == .int64 else {
        throw ctx.invalid("the shape tensor must be int32 or int64, is \(shape.type)")
    }
    try ctx.setOutputDynamic(0)
    let input = try ctx.input(0)
    let inputShape = input.shape, elements = input.elementCount
    let bytes = storedBytes(elements, input.type)
    let from = input.index, to = try ctx.output(0).index, shapeIndex = shape.index
    let rank = shape.elementCount, is64 = shape.type == .int64, node = ctx.nodeIndex
    return { (c) throws(InterpreterError) in
        let requested = is64
            ? UnsafeBufferPointer(start: c.data(shapeIndex, as: Int64.self), count: rank).map { Int(clamping: $0) }
            : UnsafeBufferPointer(start: c.data(shapeIndex, as: Int32.self), count: rank).map { Int($0) }
        switch reshaped(elements, inputShape: inputShape, to: requested) {
        case .success(let outputShape):
            let dst = try c.resize(to, to: outputShape)
            if bytes > 0 { dst.copyMemory(from: c.raw(from), byteCount: bytes) }
        case .failure(let reason):
            throw .invokeFailed(node: node, op: "RESHAPE", reason: reason.message)
        }
    }
}

/// Why a requested shape cannot hold the input.
private struct ReshapeRefusal: Error {
    let message: String
}

/// `requested` with its one `-1` (if any) filled in so that it holds `elements` values.
private func reshaped(_ elements: Int, inputShape: [Int], to requested: [Int]) -> Result<[Int], ReshapeRefusal> {
    var shape = requested
    let known = requested.filter { $0 != -1 }
    guard requested.count(where: { $0 == -1 }) <= 1, known.allSatisfy({ $0 >= 0 }) else {
        return .failure(.init(message: "new shape \(requested) may hold at most one -1 and no other negative extent"))
    }
    // Extents come from the model or the graph: multiply without trapping.
    var knownCount = 1
    for extent in known {
        let (product, overflow) = knownCount.multipliedReportingOverflow(by: extent)
        guard !overflow else { return .failure(.init(message: "new shape \(requested) has more elements than can be counted")) }
        knownCount = product
    }
    if let wildcard = requested.firstIndex(of: -1) {
        guard knownCount > 0, elements % knownCount == 0 else {
            return .failure(.init(message: "cannot reshape \(inputShape) to \(requested)"))
        }
        shape[wildcard] = elements / knownCount
    } else if knownCount != elements {
        return .failure(.init(message: "cannot reshape \(inputShape) (\(elements) elements) to \(requested)"))
    }
    return .success(shape)
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
    let bytes = storedBytes(input.elementCount, input.type), node = ctx.nodeIndex
    return { (c) throws(InterpreterError) in
        let a = is64 ? Int(truncatingIfNeeded: c.data(axisIndex, as: Int64.self).pointee) : Int(c.data(axisIndex, as: Int32.self).pointee)
        guard let shape = expanded(a) else {
            throw .invokeFailed(node: node, op: "EXPAND_DIMS", reason: "axis \(a) out of range for rank \(inputShape.count)")
        }
        let dst = try c.resize(to, to: shape)
        if bytes > 0 { dst.copyMemory(from: c.raw(from), byteCount: bytes) }
    }
}

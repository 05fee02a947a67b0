import Kernels

/// CONCATENATION, PACK, UNPACK, SPLIT and SPLIT_V: joining tensors along an axis and cutting
/// one apart.
extension OpRegistry {
    mutating func registerConcatenationOps() {
        let all = OpRegistry.elementMovingTypes
        register(.concatenation, types: all + [.int4], prepareConcatenation)
        register(.pack, types: all, preparePack)
        register(.unpack, types: all, prepareUnpack)
        register(.split, types: all, outputTypes: .sameAs(input: 1), prepareSplit)
        register(.splitV, types: all, prepareSplitV)
    }
}

private func prepareConcatenation(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...Int.max, outputs: 1...1)
    guard case .concatenationOptions(let o)? = ctx.options else { throw ctx.invalid("missing ConcatenationOptions") }
    guard o.fusedActivationFunction == .none else { throw ctx.unsupported("fused activation \(o.fusedActivationFunction) on CONCATENATION") }
    let first = try ctx.input(0), y = try ctx.output(0)
    try ctx.requireSameType(first.type, inputs: Array(0..<ctx.inputCount))
    guard first.rank > 0 else { throw ctx.invalid("inputs must have rank at least 1") }
    let axis = try ctx.normalizedAxis(Int(o.axis), rank: first.rank)
    var inputs: [TensorInfo] = []
    var total = 0
    for i in 0..<ctx.inputCount {
        let t = try ctx.input(i)
        guard t.rank == first.rank, t.shape.indices.allSatisfy({ $0 == axis || t.shape[$0] == first.shape[$0] }) else {
            throw ctx.invalid("input \(i) has shape \(t.shape), which does not match input 0's \(first.shape) off axis \(axis)")
        }
        total += t.shape[axis]
        inputs.append(t)
    }
    var shape = first.shape
    shape[axis] = total
    try ctx.setOutputShape(0, shape)
    let indices = inputs.map(\.index), shapes = inputs.map(\.shape), yi = y.index
    if first.type == .int4 {
        // LiteRT's Concatenation<Int4> copies value by value and keeps the bits as they are (no
        // requantisation), whatever the sizes.
        guard y.type == .int4 else { throw ctx.invalid("output type \(y.type) must be INT4, as the inputs are") }
        let outer = shape[..<axis].reduce(1, *), inner = shape[(axis + 1)...].reduce(1, *)
        let runs = shapes.map { $0[axis] * inner }, total = shape.reduce(1, *)
        return { c in
            let output = c.data(yi, as: UInt8.self)
            output.update(repeating: 0, count: (total + 1) / 2)
            var o = 0
            for k in 0..<outer {
                for (i, t) in indices.enumerated() {
                    let input = c.data(t, as: UInt8.self), start = k * runs[i]
                    for j in start..<(start + runs[i]) {
                        output[o >> 1] |= (UInt8(bitPattern: PackedInt4.value(input, at: j)) & 0x0F) << (o & 1 == 0 ? 0 : 4)
                        o += 1
                    }
                }
            }
        }
    }
    let size = try ctx.elementSize(first, role: "input 0")
    if first.type == .int8 || first.type == .uInt8 {
        let qy = try ctx.affine(y, role: "output")
        var qs: [AffineQuantization] = []
        for (i, t) in inputs.enumerated() { qs.append(try ctx.affine(t, role: "input \(i)")) }
        if qs.contains(where: { $0 != qy }) {
            // Inputs quantised unlike the output are requantised on the way.
            let sizes = shapes.map { $0[axis] }
            let outer = shape[..<axis].reduce(1, *), inner = shape[(axis + 1)...].reduce(1, *)
            func kernel<T: QuantizedElement>(_: T.Type) -> NodeKernel {
                { c in
                    c.withPointers(to: indices, { UnsafePointer($0.assumingMemoryBound(to: T.self)) }) {
                        Concatenation.Quantized.reference(inputs: $0, quantizations: qs, axisSizes: sizes, outerCount: outer, innerCount: inner,
                                                          output: c.data(yi, as: T.self), outputQuantization: qy)
                    }
                }
            }
            return first.type == .int8 ? kernel(Int8.self) : kernel(UInt8.self)
        }
    }
    let plan = Concatenation.Plan(inputShapes: shapes, axis: axis, elementSize: size)
    return { c in c.withPointers(to: indices, { UnsafeRawPointer($0) }) { plan.run(inputs: $0, output: c.raw(yi)) } }
}

private func preparePack(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...Int.max, outputs: 1...1)
    guard case .packOptions(let o)? = ctx.options else { throw ctx.invalid("missing PackOptions") }
    guard Int(o.valuesCount) == ctx.inputCount else {
        throw ctx.invalid("values_count \(o.valuesCount) differs from the \(ctx.inputCount) inputs")
    }
    let first = try ctx.input(0)
    try ctx.requireSameType(first.type, inputs: Array(0..<ctx.inputCount))
    for i in 1..<ctx.inputCount {
        let t = try ctx.input(i)
        guard t.shape == first.shape else { throw ctx.invalid("input \(i) has shape \(t.shape), input 0 has \(first.shape)") }
    }
    // The new axis may sit after the last one, so the valid range is one wider than the rank.
    let axis = try ctx.normalizedAxis(Int(o.axis), rank: first.rank + 1)
    var shape = first.shape
    shape.insert(ctx.inputCount, at: axis)
    try ctx.setOutputShape(0, shape)
    let size = try ctx.elementSize(first, role: "input 0")
    let indices = ctx.inputIndices, yi = try ctx.output(0).index
    let plan = Concatenation.Plan(packing: indices.count, of: first.shape, axis: axis, elementSize: size)
    return { c in c.withPointers(to: indices, { UnsafeRawPointer($0) }) { plan.run(inputs: $0, output: c.raw(yi)) } }
}

private func prepareUnpack(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...Int.max)
    guard case .unpackOptions(let o)? = ctx.options else { throw ctx.invalid("missing UnpackOptions") }
    let x = try ctx.input(0)
    let axis = try ctx.normalizedAxis(Int(o.axis), rank: x.rank)
    guard x.shape[axis] == ctx.outputCount, Int(o.num) == ctx.outputCount else {
        throw ctx.invalid("num \(o.num) and \(ctx.outputCount) outputs must equal the extent \(x.shape[axis]) of axis \(axis)")
    }
    var shape = x.shape
    shape.remove(at: axis)
    for i in 0..<ctx.outputCount { try ctx.setOutputShape(i, shape) }
    let size = try ctx.elementSize(x, role: "input")
    let xi = x.index, outputs = ctx.outputIndices, inputShape = x.shape
    return { c in
        c.withPointers(to: outputs, { $0 }) {
            Split.unpack(input: c.raw(xi), inputShape: inputShape, axis: axis, elementSize: size, outputs: $0)
        }
    }
}

/// Declares the pieces' shapes and binds the split kernel (shared by SPLIT and SPLIT_V).
private func splitKernel(_ ctx: PrepareContext, input x: TensorInfo, axis: Int, sizes: [Int]) throws(InterpreterError) -> NodeKernel {
    for i in 0..<ctx.outputCount {
        let t = try ctx.output(i).type
        guard t == x.type else { throw ctx.invalid("output \(i) has type \(t), the data has \(x.type)") }
    }
    for (i, s) in sizes.enumerated() {
        var shape = x.shape
        shape[axis] = s
        try ctx.setOutputShape(i, shape)
    }
    let size = try ctx.elementSize(x, role: "input")
    let xi = x.index, outputs = ctx.outputIndices, inputShape = x.shape
    return { c in
        c.withPointers(to: outputs, { $0 }) {
            Split.apply(input: c.raw(xi), inputShape: inputShape, axis: axis, sizes: sizes, elementSize: size, outputs: $0)
        }
    }
}

/// The split axis from a constant scalar input.
private func splitAxis(_ ctx: PrepareContext, input i: Int, rank: Int) throws(InterpreterError) -> Int {
    let values = try ctx.constantIntegers(input: i)
    guard values.count == 1 else { throw ctx.invalid("axis must be one value, has \(values.count)") }
    return try ctx.normalizedAxis(values[0], rank: rank)
}

private func prepareSplit(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 1...Int.max)
    // SPLIT takes the axis first and the data second.
    let x = try ctx.input(1)
    let axis = try splitAxis(ctx, input: 0, rank: x.rank)
    let n = ctx.outputCount
    if case .splitOptions(let o)? = ctx.options, Int(o.numSplits) != n {
        throw ctx.invalid("num_splits \(o.numSplits) differs from the \(n) outputs")
    }
    guard x.shape[axis] % n == 0 else { throw ctx.invalid("axis \(axis) of extent \(x.shape[axis]) does not split into \(n) equal parts") }
    return try splitKernel(ctx, input: x, axis: axis, sizes: [Int](repeating: x.shape[axis] / n, count: n))
}

private func prepareSplitV(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...Int.max)
    let x = try ctx.input(0)
    let axis = try splitAxis(ctx, input: 2, rank: x.rank)
    var sizes = try ctx.constantIntegers(input: 1)
    guard sizes.count == ctx.outputCount else {
        throw ctx.invalid("\(sizes.count) size_splits for \(ctx.outputCount) outputs")
    }
    let extent = x.shape[axis]
    let wildcards = sizes.indices.filter { sizes[$0] == -1 }
    guard wildcards.count <= 1, sizes.allSatisfy({ $0 >= -1 }) else {
        throw ctx.invalid("size_splits \(sizes) may hold at most one -1 and no other negative value")
    }
    let known = sizes.filter { $0 >= 0 }.reduce(0) { $0 &+ $1 }
    if let w = wildcards.first {
        guard known <= extent else { throw ctx.invalid("size_splits \(sizes) exceed the extent \(extent) of axis \(axis)") }
        sizes[w] = extent - known
    }
    guard sizes.reduce(0, +) == extent else {
        throw ctx.invalid("size_splits \(sizes) do not sum to the extent \(extent) of axis \(axis)")
    }
    return try splitKernel(ctx, input: x, axis: axis, sizes: sizes)
}

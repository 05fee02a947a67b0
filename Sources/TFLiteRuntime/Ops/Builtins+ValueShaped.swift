import Kernels

/// WHERE (coordinates of true elements) and UNIQUE, whose output shapes depend on the input
/// values.
extension OpRegistry {
    mutating func registerValueShapedOps() {
        register(.where, types: [.bool, .float32, .int32, .int64, .int8, .uInt8], outputTypes: .checkedByOp, prepareWhere)
        register(.unique, types: [.float32, .int8, .uInt8, .int16, .int32, .int64], outputTypes: .firstSameAs(input: 0), prepareUnique)
    }
}

private func prepareWhere(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    guard y.type == .int64 else { throw ctx.invalid("output must be int64, is \(y.type)") }
    let shape = x.shape, xi = x.index, yi = y.index, n = x.elementCount
    func kernel<T: Equatable & Numeric>(_: T.Type) throws(InterpreterError) -> NodeKernel {
        if let data = x.constantData {
            let count = Where.count(input: data.assumingMemoryBound(to: T.self), elementCount: n)
            try ctx.setOutputShape(0, [count, shape.count])
            return { c in Where.run(input: c.data(xi, as: T.self), shape: shape, output: c.data(yi, as: Int64.self)) }
        }
        // The number of rows is known only once the condition is computed.
        try ctx.setOutputDynamic(0)
        return { c throws(InterpreterError) in
            let input = c.data(xi, as: T.self)
            let count = Where.count(input: input, elementCount: n)
            let out = try c.resize(yi, to: [count, shape.count])
            Where.run(input: input, shape: shape, output: out.assumingMemoryBound(to: Int64.self))
        }
    }
    switch x.type {
    case .bool, .uInt8: return try kernel(UInt8.self)
    case .int8: return try kernel(Int8.self)
    case .float32: return try kernel(Float.self)
    case .int32: return try kernel(Int32.self)
    case .int64: return try kernel(Int64.self)
    case let t: throw ctx.unsupported("input type \(t)")
    }
}

private func prepareUnique(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 2...2)
    let x = try ctx.input(0), values = try ctx.output(0), indices = try ctx.output(1)
    guard x.rank == 1 else { throw ctx.invalid("input must be a vector, has shape \(x.shape)") }
    let n = x.elementCount, xi = x.index, vi = values.index, ii = indices.index
    try ctx.setOutputShape(1, x.shape)
    func kernel<T: Hashable, I: FixedWidthInteger>(_: T.Type, _: I.Type) throws(InterpreterError) -> NodeKernel {
        guard let data = x.constantData else {
            // The number of distinct values is known only once the input is computed.
            try ctx.setOutputDynamic(0)
            return { c throws(InterpreterError) in
                let found = Unique.run(input: c.data(xi, as: T.self), count: n, indices: c.data(ii, as: I.self))
                let out = try c.resize(vi, to: [found.count])
                out.assumingMemoryBound(to: T.self).update(from: found, count: found.count)
            }
        }
        let positions = UnsafeMutablePointer<I>.allocate(capacity: max(n, 1))
        defer { positions.deallocate() }
        let distinct = Unique.run(input: data.assumingMemoryBound(to: T.self), count: n, indices: positions).count
        try ctx.setOutputShape(0, [distinct])
        return { c in
            let found = Unique.run(input: c.data(xi, as: T.self), count: n, indices: c.data(ii, as: I.self))
            c.data(vi, as: T.self).update(from: found, count: found.count)
        }
    }
    func byValue<I: FixedWidthInteger>(_: I.Type) throws(InterpreterError) -> NodeKernel {
        switch x.type {
        case .float32: return try kernel(Float.self, I.self)
        case .int8: return try kernel(Int8.self, I.self)
        case .uInt8: return try kernel(UInt8.self, I.self)
        case .int16: return try kernel(Int16.self, I.self)
        case .int32: return try kernel(Int32.self, I.self)
        case .int64: return try kernel(Int64.self, I.self)
        case let t: throw ctx.unsupported("input type \(t)")
        }
    }
    switch indices.type {
    case .int32: return try byValue(Int32.self)
    case .int64: return try byValue(Int64.self)
    case let t: throw ctx.unsupported("index output type \(t)")
    }
}

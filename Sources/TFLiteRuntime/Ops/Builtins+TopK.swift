import Kernels

/// TOPK_V2 over float32, int8, uint8, int16, int32 and int64, with int32 or int64 indices.
extension OpRegistry {
    mutating func registerTopKOps() {
        register(.topkV2, types: [.float32, .int8, .uint8, .int16, .int32, .int64], prepareTopK)
    }
}

private func prepareTopK(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 2...2)
    let x = try ctx.input(0), values = try ctx.output(0), indices = try ctx.output(1)
    guard x.rank >= 1 else { throw ctx.invalid("input must have rank 1 or more, has shape \(x.shape)") }
    guard values.type == x.type else { throw ctx.invalid("values output type \(values.type) differs from input type \(x.type)") }
    let k = try ctx.constantInteger(input: 1, what: "k")
    let length = x.shape[x.rank - 1]
    guard k >= 0, k <= length else { throw ctx.invalid("k = \(k) is outside 0...\(length) (the last dimension of \(x.shape))") }
    var shape = x.shape
    shape[shape.count - 1] = k
    try ctx.setOutputShape(0, shape)
    try ctx.setOutputShape(1, shape)
    let rows = Shape.product(x.shape, 0..<x.rank - 1)
    let xi = x.index, vi = values.index, ii = indices.index
    func kernel<T: Comparable>(_: T.Type) throws(InterpreterError) -> NodeKernel {
        switch indices.type {
        case .int32:
            return { c in TopK.run(input: c.data(xi, as: T.self), rows: rows, rowLength: length, k: k,
                                   values: c.data(vi, as: T.self), indices: c.data(ii, as: Int32.self)) }
        case .int64:
            return { c in TopK.run(input: c.data(xi, as: T.self), rows: rows, rowLength: length, k: k,
                                   values: c.data(vi, as: T.self), indices: c.data(ii, as: Int64.self)) }
        case let t: throw ctx.unsupported("index output type \(t)")
        }
    }
    switch x.type {
    case .float32: return try kernel(Float.self)
    case .int8: return try kernel(Int8.self)
    case .uint8: return try kernel(UInt8.self)
    case .int16: return try kernel(Int16.self)
    case .int32: return try kernel(Int32.self)
    case .int64: return try kernel(Int64.self)
    case let t: throw ctx.unsupported("input type \(t)")
    }
}

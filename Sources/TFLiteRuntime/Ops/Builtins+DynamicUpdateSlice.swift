import Kernels

/// DYNAMIC_UPDATE_SLICE over every fixed-size element type: the operand with a block replaced
/// at start coordinates read at run time (KV caches of converted transformers write each new
/// token this way).
extension OpRegistry {
    mutating func registerDynamicUpdateSliceOps() {
        register(.dynamicUpdateSlice, types: [.float32, .float16, .int8, .uInt8, .int16, .int32, .int64, .bool, .int4], prepareDynamicUpdateSlice)
    }
}

private func prepareDynamicUpdateSlice(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    let operand = try ctx.input(0), update = try ctx.input(1), start = try ctx.input(2), y = try ctx.output(0)
    guard update.type == operand.type, y.type == operand.type else {
        throw ctx.invalid("operand, update and output types (\(operand.type), \(update.type), \(y.type)) must match")
    }
    let size = operand.type == .int4 ? 1 : try ctx.elementSize(operand, role: "operand")
    guard update.rank == operand.rank, zip(update.shape, operand.shape).allSatisfy({ $0 <= $1 }) else {
        throw ctx.invalid("update of shape \(update.shape) does not fit in operand of shape \(operand.shape)")
    }
    guard start.rank == 1, start.shape[0] == operand.rank else {
        throw ctx.invalid("start indices must be a vector of \(operand.rank) entries, have shape \(start.shape)")
    }
    let wide = try ctx.requireType(input: 2, .int32, .int64) == .int64
    try ctx.setOutputShape(0, operand.shape)
    let oi = operand.index, ui = update.index, si = start.index, yi = y.index
    let slice = DynamicUpdateSlice(operandShape: operand.shape, updateShape: update.shape, elementSize: size)
    if operand.type == .int4 {
        // LiteRT updates int4 values one by one; here both tensors are unpacked into buffers of
        // this node's, the update written in place there, and the result packed.
        let count = operand.elementCount, updateCount = update.elementCount
        let values = AlignedBuffer(byteCount: count), updates = AlignedBuffer(byteCount: updateCount)
        return { c in
            let result = values.pointer.assumingMemoryBound(to: Int8.self), starts = c.raw(si)
            PackedInt4.unpack(c.data(oi, as: UInt8.self), from: 0, count: count, into: result)
            PackedInt4.unpack(c.data(ui, as: UInt8.self), from: 0, count: updateCount, into: updates.pointer.assumingMemoryBound(to: Int8.self))
            slice.run(operand: values.pointer, update: updates.pointer, start: { d in
                wide ? Int(clamping: starts.load(fromByteOffset: 8 * d, as: Int64.self)) : Int(starts.load(fromByteOffset: 4 * d, as: Int32.self))
            }, output: values.pointer)
            packInt4(count: count, into: c.data(yi, as: UInt8.self)) { result[$0] }
        }
    }
    return { c in
        let starts = c.raw(si)
        slice.run(operand: c.raw(oi), update: c.raw(ui), start: { d in
            wide ? Int(clamping: starts.load(fromByteOffset: 8 * d, as: Int64.self)) : Int(starts.load(fromByteOffset: 4 * d, as: Int32.self))
        }, output: c.raw(yi))
    }
}

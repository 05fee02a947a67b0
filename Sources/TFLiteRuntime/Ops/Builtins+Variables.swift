/// Resource variables: VAR_HANDLE names a variable, ASSIGN_VARIABLE stores a value into it and
/// READ_VARIABLE reads it back. Values persist across `invoke()` calls and are shared by all
/// subgraphs of the interpreter.
extension OpRegistry {
    mutating func registerVariableOps() {
        register(.varHandle, types: [.resource], outputTypes: .checkedByOp, foldable: false, prepareVarHandle)
        register(.readVariable, types: [.resource], outputTypes: .checkedByOp, foldable: false, prepareReadVariable)
        register(.assignVariable, types: [.resource], outputTypes: .checkedByOp, foldable: false, prepareAssignVariable)
    }
}

private func prepareVarHandle(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 0...0, outputs: 1...1)
    var container = "", name = ""
    if case .varHandleOptions(let o)? = ctx.options {
        container = o.container ?? ""
        name = o.sharedName ?? ""
    }
    let y = try ctx.output(0)
    guard y.type == .resource else { throw ctx.invalid("output must be a resource, is \(y.type)") }
    try ctx.setOutputShape(0, [])
    let id = ctx.executor.environment.resources.id(container: container, sharedName: name)
    let yi = y.index
    return { c in c.data(yi, as: Int32.self).pointee = id }
}

private func prepareReadVariable(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let handle = try ctx.input(0), y = try ctx.output(0)
    guard handle.type == .resource else { throw ctx.invalid("input must be a resource, is \(handle.type)") }
    // The value's shape is whatever was last assigned, known only at run time.
    try ctx.setOutputDynamic(0)
    let hi = handle.index, yi = y.index, node = ctx.nodeIndex, type = y.type
    let resources = ctx.executor.environment.resources
    return { (c) throws(InterpreterError) in
        let id = c.data(hi, as: Int32.self).pointee
        guard let value = resources.value(id) else {
            throw .invokeFailed(node: node, op: "READ_VARIABLE", reason: "variable \(id) is read before it is assigned")
        }
        guard value.type == type else {
            throw .invokeFailed(node: node, op: "READ_VARIABLE", reason: "variable holds \(value.type), the output is \(type)")
        }
        let out = try c.resize(yi, to: value.shape)
        value.bytes.withUnsafeBytes { if !$0.isEmpty { out.copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
    }
}

private func prepareAssignVariable(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...2, outputs: 0...0)
    let handle = try ctx.input(0), value = try ctx.input(1)
    guard handle.type == .resource else { throw ctx.invalid("input 0 must be a resource, is \(handle.type)") }
    let hi = handle.index, vi = value.index, type = value.type
    let resources = ctx.executor.environment.resources
    return { (c) throws(InterpreterError) in
        let shape = c.shape(vi)
        let count = shape.reduce(1, *) * (type.byteSize ?? 0)
        let bytes = [UInt8](UnsafeRawBufferPointer(start: c.raw(vi), count: count))
        resources.assign(c.data(hi, as: Int32.self).pointee, .init(type: type, shape: shape, bytes: bytes))
    }
}

/// LiteRT's static hash tables (int64 to string, or string to int64), kept in the
/// interpreter's ``HashTableStore``: HASHTABLE hands out a table's id, HASHTABLE_IMPORT fills
/// the table once, HASHTABLE_FIND looks keys up (misses take the default value's first
/// element) and HASHTABLE_SIZE counts its entries.
extension OpRegistry {
    mutating func registerHashTableOps() {
        register(.hashtable, types: [.resource], outputTypes: .checkedByOp, foldable: false, prepareHashTable)
        register(.hashtableImport, types: [.int64, .string], outputTypes: .checkedByOp, foldable: false, prepareHashTableImport)
        register(.hashtableFind, types: [.int64, .string], outputTypes: .checkedByOp, foldable: false, prepareHashTableFind)
        register(.hashtableSize, types: [.resource], outputTypes: .checkedByOp, foldable: false, prepareHashTableSize)
    }
}

/// The table input `handle` names, with the key and value types it must have.
private func table(_ c: InvokeContext, handle: Int, key: DataType, value: DataType, node: Int,
                   op: String) throws(InterpreterError) -> HashTableStore.Table {
    let id = c.data(handle, as: Int32.self).pointee
    guard let table = c.executor.environment.hashTables.table(id) else {
        throw .invokeFailed(node: node, op: op, reason: "hash table \(id) does not exist (no HASHTABLE node made it)")
    }
    guard table.keyType == key, table.valueType == value else {
        throw .invokeFailed(node: node, op: op,
                            reason: "hash table \(id) maps \(table.keyType) to \(table.valueType), the node uses \(key) to \(value)")
    }
    return table
}

private func prepareHashTable(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 0...0, outputs: 1...1)
    guard case .hashtableOptions(let o)? = ctx.options else { throw ctx.invalid("missing HashtableOptions") }
    let key = DataType(o.keyDtype), value = DataType(o.valueDtype)
    guard HashTableStore.supports(key: key, value: value) else {
        throw ctx.unsupported("a table from \(key) to \(value); LiteRT's tables map INT64 to STRING or STRING to INT64")
    }
    let y = try ctx.output(0)
    guard y.type == .resource else { throw ctx.invalid("output must be a resource, is \(y.type)") }
    try ctx.setOutputShape(0, [1])
    let yi = y.index, id = o.tableId
    let store = ctx.executor.environment.hashTables
    return { c in
        c.data(yi, as: Int32.self).pointee = id
        _ = store.table(id, keyType: key, valueType: value)
    }
}

private func prepareHashTableImport(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 0...0)
    let handle = try ctx.tableHandle(0), keys = try ctx.input(1), values = try ctx.input(2)
    guard HashTableStore.supports(key: keys.type, value: values.type) else {
        throw ctx.unsupported("keys \(keys.type) and values \(values.type); LiteRT's tables map INT64 to STRING or STRING to INT64")
    }
    guard keys.shape == values.shape else {
        throw ctx.invalid("keys have shape \(keys.shape), values \(values.shape); they must match")
    }
    let ki = keys.index, vi = values.index, keyType = keys.type, valueType = values.type, node = ctx.nodeIndex
    return { (c) throws(InterpreterError) in
        let t = try table(c, handle: handle, key: keyType, value: valueType, node: node, op: "HASHTABLE_IMPORT")
        guard !t.isInitialized else { return }
        let n = c.shape(ki).reduce(1, *)
        // The first of repeated keys wins, as in LiteRT.
        switch t.entries {
        case .int64ToString(var d):
            let k = c.data(ki, as: Int64.self), v = try c.strings(vi)
            for i in 0..<n where d[k[i]] == nil { d[k[i]] = [UInt8](v[i]) }
            t.entries = .int64ToString(d)
        case .stringToInt64(var d):
            let k = try c.strings(ki), v = c.data(vi, as: Int64.self)
            for i in 0..<n {
                let key = [UInt8](k[i])
                if d[key] == nil { d[key] = v[i] }
            }
            t.entries = .stringToInt64(d)
        }
        t.isInitialized = true
    }
}

private func prepareHashTableFind(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    let handle = try ctx.tableHandle(0), keys = try ctx.input(1), fallback = try ctx.input(2), y = try ctx.output(0)
    guard fallback.type == y.type else { throw ctx.invalid("the default value is \(fallback.type), the output \(y.type)") }
    guard HashTableStore.supports(key: keys.type, value: y.type) else {
        throw ctx.unsupported("keys \(keys.type) and values \(y.type); LiteRT's tables map INT64 to STRING or STRING to INT64")
    }
    guard fallback.elementCount >= 1 else { throw ctx.invalid("the default value is empty") }
    try ctx.setOutputShape(0, keys.shape)
    let ki = keys.index, di = fallback.index, yi = y.index, keyType = keys.type, valueType = y.type, node = ctx.nodeIndex
    return { (c) throws(InterpreterError) in
        let t = try table(c, handle: handle, key: keyType, value: valueType, node: node, op: "HASHTABLE_FIND")
        guard t.isInitialized else {
            throw .invokeFailed(node: node, op: "HASHTABLE_FIND", reason: "the hash table is read before HASHTABLE_IMPORT filled it")
        }
        let shape = c.shape(ki), n = shape.reduce(1, *)
        // Checked again here: a default computed at run time may come out empty.
        guard c.shape(di).reduce(1, *) >= 1 else {
            throw .invokeFailed(node: node, op: "HASHTABLE_FIND", reason: "the default value is empty")
        }
        switch t.entries {
        case .int64ToString(let d):
            let k = c.data(ki, as: Int64.self), miss = [UInt8](try c.strings(di)[0])
            var out = PackedStrings.Builder()
            for i in 0..<n { out.append(d[k[i]] ?? miss) }
            try c.setStrings(yi, shape: shape, out)
        case .stringToInt64(let d):
            let k = try c.strings(ki), miss = c.data(di, as: Int64.self).pointee, out = c.data(yi, as: Int64.self)
            for i in 0..<n { out[i] = d[[UInt8](k[i])] ?? miss }
        }
    }
}

private func prepareHashTableSize(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let handle = try ctx.tableHandle(0), y = try ctx.output(0)
    guard y.type == .int64 else { throw ctx.invalid("output must be int64, is \(y.type)") }
    try ctx.setOutputShape(0, [1])
    let yi = y.index, node = ctx.nodeIndex
    let store = ctx.executor.environment.hashTables
    return { (c) throws(InterpreterError) in
        let id = c.data(handle, as: Int32.self).pointee
        guard let t = store.table(id) else {
            throw .invokeFailed(node: node, op: "HASHTABLE_SIZE", reason: "hash table \(id) does not exist (no HASHTABLE node made it)")
        }
        c.data(yi, as: Int64.self).pointee = Int64(t.count)
    }
}

import Kernels

/// LiteRT's GenAI custom ops, which its LLM runtime registers for models converted with
/// ai-edge-torch: `odml.update_external_kv_cache`, `odml.update_kv_cache` (a cache kept between
/// invocations) and `odml.scaled_dot_product_attention`. Float32 only, batch 1 for the caches,
/// as in LiteRT.
extension OpRegistry {
    mutating func registerGenAIOps() {
        register(custom: "odml.update_external_kv_cache", types: [.float32, .int32], prepareExternalKVCache)
        register(custom: "odml.update_kv_cache", types: [.float32, .int64], foldable: false, prepareKVCache)
        register(custom: "odml.scaled_dot_product_attention", types: [.float32], prepareScaledDotProductAttention)
    }
}

/// Inputs: key cache, value cache `[1, entries, heads, dim]`, positions (int32 `[slots]`), key
/// and value slices `[1, slots, heads, dim]`; outputs: the updated caches.
private func prepareExternalKVCache(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 5...5, outputs: 2...2)
    let k = try ctx.input(0), v = try ctx.input(1), positions = try ctx.input(2), ks = try ctx.input(3), vs = try ctx.input(4)
    for i in [0, 1, 3, 4] { try ctx.requireType(input: i, .float32) }
    try ctx.requireType(input: 2, .int32)
    guard k.rank == 4, k.shape == v.shape, ks.rank == 4, ks.shape == vs.shape else {
        throw ctx.invalid("caches \(k.shape), \(v.shape) and slices \(ks.shape), \(vs.shape) must be 4-D pairs of one shape")
    }
    guard ks.shape[0] == 1, k.shape[0] == 1, ks.shape[2] == k.shape[2], ks.shape[3] == k.shape[3] else {
        throw ctx.invalid("slices \(ks.shape) do not fit caches \(k.shape) (batch 1, same heads and dim)")
    }
    guard positions.rank == 1, positions.shape[0] == ks.shape[1] else {
        throw ctx.invalid("positions \(positions.shape) must hold one position per slice entry (\(ks.shape[1]))")
    }
    try ctx.setOutputShape(0, k.shape)
    try ctx.setOutputShape(1, k.shape)
    let entries = k.shape[1], length = k.shape[2] * k.shape[3], slots = ks.shape[1]
    let (ki, vi, pi, ksi, vsi) = (k.index, v.index, positions.index, ks.index, vs.index)
    let ko = try ctx.output(0).index, vo = try ctx.output(1).index, fail = ctx.failure
    return { c throws(InterpreterError) in
        do throws(KernelError) {
            let p = c.data(pi, as: Int32.self)
            try KVCacheUpdate.external(cache: c.data(ki, as: Float.self), slice: c.data(ksi, as: Float.self), positions: p,
                                       count: slots, entries: entries, entryLength: length, output: c.data(ko, as: Float.self))
            try KVCacheUpdate.external(cache: c.data(vi, as: Float.self), slice: c.data(vsi, as: Float.self), positions: p,
                                       count: slots, entries: entries, entryLength: length, output: c.data(vo, as: Float.self))
        } catch { throw fail(error) }
    }
}

/// Inputs: positions (int64 `[slots]`, the first one used), key and value `[1, slots, heads,
/// dim]`; outputs: this layer's key and value caches `[1, kv_cache_max, heads, dim]`. Options:
/// `kv_cache_max` (default 2048), `num_layers` (32), `layer_index` (0).
private func prepareKVCache(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 2...2)
    let positions = try ctx.input(0), key = try ctx.input(1), value = try ctx.input(2)
    try ctx.requireType(input: 0, .int64)
    try ctx.requireType(input: 1, .float32)
    try ctx.requireType(input: 2, .float32)
    guard key.rank == 4, key.shape == value.shape, key.shape[0] == 1 else {
        throw ctx.invalid("key \(key.shape) and value \(value.shape) must be one 4-D shape of batch 1")
    }
    guard positions.rank == 1, positions.shape[0] == key.shape[1] else {
        throw ctx.invalid("positions \(positions.shape) must hold one position per key entry (\(key.shape[1]))")
    }
    let options = try FlexOptions(ctx)
    let maxEntries = try options.int("kv_cache_max", ctx), layerCount = try options.int("num_layers", ctx)
    let layerIndex = try options.int("layer_index", ctx)
    let entries = maxEntries > 0 ? maxEntries : 2048, layers = layerCount > 0 ? layerCount : 32
    let layer = layerIndex > 0 ? layerIndex : 0
    guard layer < layers else { throw ctx.invalid("layer_index \(layer) is outside the cache's \(layers) layers") }
    let slots = key.shape[1], length = key.shape[2] * key.shape[3]
    guard slots <= entries else { throw ctx.invalid("\(slots) entries do not fit a cache of \(entries)") }
    let (bytes, overflow) = (layers * entries).multipliedReportingOverflow(by: length * 8)
    guard !overflow, bytes <= ctx.executor.environment.memoryLimit else {
        throw ctx.invalid("a cache of \(layers) layers x \(entries) entries x \(length) values exceeds the memory limit")
    }
    let shape = [1, entries, key.shape[2], key.shape[3]]
    try ctx.setOutputShape(0, shape)
    try ctx.setOutputShape(1, shape)
    let store = ctx.executor.environment.kvCaches, subgraph = ctx.executor.subgraphIndex
    guard let buffers = store.buffers(subgraph: subgraph, layers: layers, entries: entries, entryLength: length) else {
        throw ctx.invalid("the subgraph's KV cache was created with other dimensions by an earlier node")
    }
    let cache = store.layer(subgraph: subgraph, node: ctx.nodeIndex, of: buffers, index: layer)
    let (pi, ki, vi) = (positions.index, key.index, value.index)
    let ko = try ctx.output(0).index, vo = try ctx.output(1).index, fail = ctx.failure
    return { c throws(InterpreterError) in
        do throws(KernelError) {
            try cache.update(start: c.data(pi, as: Int64.self).pointee, slots: slots, key: c.data(ki, as: Float.self),
                             value: c.data(vi, as: Float.self), keysOut: c.data(ko, as: Float.self), valuesOut: c.data(vo, as: Float.self))
        } catch { throw fail(error) }
    }
}

/// Inputs: query `[batch, tokens, heads, dim]`, key and value `[batch, length, kvHeads, dim]`,
/// a 4-D additive mask broadcast to `[batch, heads, tokens, length]`; output like the query.
/// Option `scale` (default `1 / sqrt(dim)`).
private func prepareScaledDotProductAttention(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 4...4, outputs: 1...1)
    let q = try ctx.input(0), k = try ctx.input(1), v = try ctx.input(2), mask = try ctx.input(3)
    for i in 0..<4 { try ctx.requireType(input: i, .float32) }
    guard q.rank == 4, k.rank == 4, k.shape == v.shape, mask.rank == 4 else {
        throw ctx.invalid("query \(q.shape), key \(k.shape), value \(v.shape) and mask \(mask.shape) must be 4-D, key and value alike")
    }
    let (batch, tokens, heads, dim) = (q.shape[0], q.shape[1], q.shape[2], q.shape[3])
    let (length, kvHeads) = (k.shape[1], k.shape[2])
    guard k.shape[0] == batch, k.shape[3] == dim, kvHeads > 0, heads % kvHeads == 0 else {
        throw ctx.invalid("key \(k.shape) does not fit query \(q.shape): same batch and dim, a divisor of its heads")
    }
    let full = [batch, heads, tokens, length]
    for (d, m) in mask.shape.enumerated() where m != 1 && m != full[d] {
        throw ctx.invalid("mask \(mask.shape) does not broadcast to \(full)")
    }
    let given = try FlexOptions(ctx).float("scale", ctx)
    // LiteRT computes the default in double: `1 / sqrt(dim)`.
    let scale = given > 0 ? given : Float(1 / Double(dim).squareRoot())
    try ctx.setOutputShape(0, q.shape)
    let shape = ScaledDotProductAttention.Shape(batch: batch, tokens: tokens, heads: heads, dim: dim, length: length,
                                                kvHeads: kvHeads, mask: mask.shape)
    ctx.requestScratch(bytes: 4 * ScaledDotProductAttention.scratchCount(shape))
    let (qi, ki, vi, mi, yi) = (q.index, k.index, v.index, mask.index, try ctx.output(0).index)
    return { c in
        ScaledDotProductAttention.run(shape, scale: scale, query: c.data(qi, as: Float.self), key: c.data(ki, as: Float.self),
                                      value: c.data(vi, as: Float.self), mask: c.data(mi, as: Float.self),
                                      output: c.data(yi, as: Float.self), scratch: c.scratch.assumingMemoryBound(to: Float.self))
    }
}

import Kernels

/// The caches `odml.update_kv_cache` keeps between invocations: one ``KVCacheBuffers`` per
/// subgraph, shared by its nodes, and each node's view of its layer, kept across re-prepares
/// (a resize re-runs prepare; the cache and the window it holds must survive it, as in LiteRT).
final class KVCacheStore {
    private var buffers: [Int: KVCacheBuffers] = [:]
    private var layers: [NodeKey: KVCacheBuffers.Layer] = [:]

    private struct NodeKey: Hashable {
        let subgraph: Int
        let node: Int
    }

    /// The buffers of `subgraph`, created with these dimensions by its first node; nil when an
    /// earlier node created them with other dimensions.
    func buffers(subgraph: Int, layers count: Int, entries: Int, entryLength: Int) -> KVCacheBuffers? {
        if let b = buffers[subgraph] {
            return b.layers == count && b.entries == entries && b.entryLength == entryLength ? b : nil
        }
        let b = KVCacheBuffers(layers: count, entries: entries, entryLength: entryLength)
        buffers[subgraph] = b
        return b
    }

    func layer(subgraph: Int, node: Int, of buffers: KVCacheBuffers, index: Int) -> KVCacheBuffers.Layer {
        let key = NodeKey(subgraph: subgraph, node: node)
        if let l = layers[key] { return l }
        let l = KVCacheBuffers.Layer(buffers, layer: index)
        layers[key] = l
        return l
    }
}

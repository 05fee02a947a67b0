#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The KV-cache writes of LiteRT's GenAI ops. Caches are `[1, entries, heads, dim]` float
/// tensors; an entry is one position's `heads * dim` values.
public enum KVCacheUpdate {
    /// `odml.update_external_kv_cache`: the caches are copied to the outputs (unless they are
    /// the same memory), then slice entry `i` is written at entry `positions[i]`. As LiteRT's
    /// kernel, the positions are taken as increasing and the first one smaller than the one
    /// before ends the update.
    /// - Throws: `KernelError.indexOutOfRange` for a position outside the cache; entries before
    ///   it have been written.
    public static func external(cache: UnsafePointer<Float>, slice: UnsafePointer<Float>, positions: UnsafePointer<Int32>,
                                count: Int, entries: Int, entryLength: Int, output: UnsafeMutablePointer<Float>) throws(KernelError) {
        if UnsafePointer(output) != cache { output.update(from: cache, count: entries * entryLength) }
        var last: Int32 = -1
        for i in 0..<count {
            let position = positions[i]
            if position < last { break }
            last = position
            guard position >= 0, Int(position) < entries else { throw .indexOutOfRange(index: Int(position), bound: entries, position: i) }
            (output + Int(position) * entryLength).update(from: slice + i * entryLength, count: entryLength)
        }
    }
}

/// The cache `odml.update_kv_cache` keeps between invocations: one buffer of
/// `[layers, entries, heads, dim]` floats for the keys and one for the values, shared by every
/// node of a subgraph (each node owns the block of its `layer_index`), zeroed when created.
/// A node writes its new entries at their positions; when a position passes the end of the
/// window the cache holds, the oldest entries are shifted out, as LiteRT's kernel does.
public final class KVCacheBuffers: @unchecked Sendable {
    public let layers: Int
    public let entries: Int
    public let entryLength: Int
    let keys: UnsafeMutablePointer<Float>
    let values: UnsafeMutablePointer<Float>

    public init(layers: Int, entries: Int, entryLength: Int) {
        (self.layers, self.entries, self.entryLength) = (layers, entries, entryLength)
        let count = layers * entries * entryLength
        keys = .allocate(capacity: count)
        keys.initialize(repeating: 0, count: count)
        values = .allocate(capacity: count)
        values.initialize(repeating: 0, count: count)
    }

    deinit {
        keys.deallocate()
        values.deallocate()
    }

    /// One node's view: its layer's block and the first position its window holds.
    public final class Layer: @unchecked Sendable {
        let buffers: KVCacheBuffers
        let layer: Int
        /// The position held by entry 0 of the block.
        private(set) var firstPosition = 0

        public init(_ buffers: KVCacheBuffers, layer: Int) {
            self.buffers = buffers
            self.layer = layer
        }

        /// Writes `slots` entries of `key` and `value` from position `start` on, shifting the
        /// window first if they pass its end, and copies the layer's blocks to the outputs.
        /// - Throws: `KernelError.invalidValue` for a position before the window.
        public func update(start: Int64, slots: Int, key: UnsafePointer<Float>, value: UnsafePointer<Float>,
                           keysOut: UnsafeMutablePointer<Float>, valuesOut: UnsafeMutablePointer<Float>) throws(KernelError) {
            let b = buffers, n = b.entryLength
            let k = b.keys + layer * b.entries * n, v = b.values + layer * b.entries * n
            let windowEnd = Int64(firstPosition + b.entries - 1)
            let last = start + Int64(slots) - 1
            guard start >= Int64(firstPosition) else {
                throw .invalidValue("position \(start) is before the cache's first position \(firstPosition)")
            }
            let shift = Int(min(max(0, last - windowEnd), Int64(b.entries)))
            if shift > 0 && shift < b.entries {
                // The regions overlap: memmove.
                memmove(k, k + shift * n, (b.entries - shift) * n * MemoryLayout<Float>.stride)
                memmove(v, v + shift * n, (b.entries - shift) * n * MemoryLayout<Float>.stride)
            }
            firstPosition += shift
            let first = Int(start) - firstPosition
            guard first >= 0, first + slots <= b.entries else {
                throw .invalidValue("positions \(start)...\(last) do not fit a cache of \(b.entries) entries")
            }
            (k + first * n).update(from: key, count: slots * n)
            (v + first * n).update(from: value, count: slots * n)
            keysOut.update(from: k, count: b.entries * n)
            valuesOut.update(from: v, count: b.entries * n)
        }
    }
}

/// LSH_PROJECTION: locality-sensitive hash bits of a batch of items. For each seed the bit is
/// the sign of the (optionally weighted) sum over items of the fingerprint of (seed bytes ++
/// item bytes), read as a signed 64-bit integer; the sparse form packs each row of bits into
/// one bucket number offset by the row, the dense form writes the bits.
public enum LSHProjection {
    /// The sign bit for one seed over `items` items of `itemBytes` bytes each.
    public static func signBit(seed: Float, items: UnsafeRawPointer, count: Int, itemBytes: Int,
                               weights: UnsafePointer<Float>?, key: UnsafeMutableRawBufferPointer) -> Int32 {
        var score = 0.0
        key.storeBytes(of: seed, as: Float.self)
        for i in 0..<count {
            UnsafeMutableRawBufferPointer(rebasing: key[4...]).copyMemory(
                from: UnsafeRawBufferPointer(start: items + i * itemBytes, count: itemBytes))
            let running = Double(Int64(bitPattern: FarmHash.fingerprint64(UnsafeRawBufferPointer(key))))
            score += weights.map { Double($0[i]) * running } ?? running
        }
        return score > 0 ? 1 : 0
    }

    /// Projects with `hashes` (`hashCount` rows of `bits` seeds). `sparse` writes `hashCount`
    /// bucket numbers, otherwise `hashCount * bits` bits.
    public static func run(hashes: UnsafePointer<Float>, hashCount: Int, bits: Int, items: UnsafeRawPointer, count: Int,
                           itemBytes: Int, weights: UnsafePointer<Float>?, sparse: Bool, output: UnsafeMutablePointer<Int32>) {
        withUnsafeTemporaryAllocation(byteCount: 4 + itemBytes, alignment: 8) { key in
            for i in 0..<hashCount {
                var signature: Int32 = 0
                for j in 0..<bits {
                    let bit = signBit(seed: hashes[i * bits + j], items: items, count: count, itemBytes: itemBytes, weights: weights, key: key)
                    if sparse { signature = signature << 1 | bit } else { output[i * bits + j] = bit }
                }
                if sparse { output[i] = signature &+ Int32(truncatingIfNeeded: i &* (1 << bits)) }
            }
        }
    }
}

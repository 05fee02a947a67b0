import TestSupport

/// Byte-level mutations of whole model files: what a damaged download or a hand-edited file
/// looks like, as opposed to the field-aware rewrites of ``StructuredMutator``. They mostly
/// exercise the FlatBuffers verifier; the variants that still load go on to the interpreter.
enum ByteMutator {
    /// Values that sit on the edges of what offsets, lengths and counts may hold.
    static let interestingWords: [UInt32] = [0, 1, 2, 3, 4, 7, 8, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x1_0000,
                                             0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF]

    /// One variant of a randomly chosen seed.
    static func mutate(_ seeds: [[UInt8]], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = seeds[Int(rng.next() % UInt64(seeds.count))]
        func position(_ count: Int) -> Int { Int(rng.next() % UInt64(max(count, 1))) }
        switch rng.next() % 6 {
        case 0:  // a few random bytes
            for _ in 0...(rng.next() % 8) { bytes[position(bytes.count)] = UInt8(truncatingIfNeeded: rng.next()) }
        case 1:  // an aligned word set to an edge value, as offsets and lengths are words
            let at = position(bytes.count / 4) * 4
            let word = interestingWords[Int(rng.next() % UInt64(interestingWords.count))]
            withUnsafeBytes(of: word.littleEndian) { raw in
                for i in 0..<4 where at + i < bytes.count { bytes[at + i] = raw[i] }
            }
        case 2:  // truncated
            bytes.removeLast(bytes.count - position(bytes.count))
        case 3:  // the head of one model spliced onto the tail of another
            let other = seeds[Int(rng.next() % UInt64(seeds.count))]
            let cut = position(bytes.count)
            let tail = position(other.count)
            bytes = Array(bytes[..<cut]) + Array(other[tail...])
        case 4:  // a chunk deleted or duplicated inside the model
            let start = position(bytes.count)
            let length = min(Int(rng.next() % 64) + 1, bytes.count - start)
            if rng.next() % 2 == 0 {
                bytes.removeSubrange(start..<(start + length))
            } else {
                bytes.insert(contentsOf: bytes[start..<(start + length)], at: start)
            }
        default:  // a 16-bit vtable-sized value bumped
            let at = position(bytes.count / 2) * 2
            if at + 1 < bytes.count {
                let value = (UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8) &+ UInt16(truncatingIfNeeded: rng.next() % 9) &- 4
                bytes[at] = UInt8(truncatingIfNeeded: value)
                bytes[at + 1] = UInt8(truncatingIfNeeded: value >> 8)
            }
        }
        return bytes
    }

}

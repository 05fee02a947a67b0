/// The Philox4x32-10 counter-based generator (Salmon et al., "Parallel Random Numbers: As
/// Easy as 1, 2, 3", SC11) with TensorFlow's seeding: the first 64-bit seed is the key, the
/// second the upper half of the 128-bit counter. Each call yields four 32-bit words and steps
/// the counter, so a seeded stream is the same word for word as LiteRT's random ops draw.
public struct Philox: Sendable, Equatable {
    public private(set) var key: (UInt32, UInt32)
    public private(set) var counter: (UInt32, UInt32, UInt32, UInt32)

    public init(seed: UInt64, seed2: UInt64) {
        key = (UInt32(truncatingIfNeeded: seed), UInt32(truncatingIfNeeded: seed >> 32))
        counter = (0, 0, UInt32(truncatingIfNeeded: seed2), UInt32(truncatingIfNeeded: seed2 >> 32))
    }

    public static func == (a: Philox, b: Philox) -> Bool {
        a.key == b.key && a.counter == b.counter
    }

    /// The next four words.
    public mutating func next() -> (UInt32, UInt32, UInt32, UInt32) {
        var c = counter, k = key
        for round in 0..<10 {
            let p0 = UInt64(0xD251_1F53) &* UInt64(c.0), p1 = UInt64(0xCD9E_8D57) &* UInt64(c.2)
            c = (UInt32(truncatingIfNeeded: p1 >> 32) ^ c.1 ^ k.0, UInt32(truncatingIfNeeded: p1),
                 UInt32(truncatingIfNeeded: p0 >> 32) ^ c.3 ^ k.1, UInt32(truncatingIfNeeded: p0))
            if round < 9 { k = (k.0 &+ 0x9E37_79B9, k.1 &+ 0xBB67_AE85) }
        }
        skip(1)
        return c
    }

    /// Advances the counter by `count` blocks of four words, as if `next()` ran that often.
    public mutating func skip(_ count: UInt64) {
        let low = UInt64(counter.0) | UInt64(counter.1) << 32
        let (sum, carry) = low.addingReportingOverflow(count)
        counter.0 = UInt32(truncatingIfNeeded: sum)
        counter.1 = UInt32(truncatingIfNeeded: sum >> 32)
        guard carry else { return }
        let high = (UInt64(counter.2) | UInt64(counter.3) << 32) &+ 1
        counter.2 = UInt32(truncatingIfNeeded: high)
        counter.3 = UInt32(truncatingIfNeeded: high >> 32)
    }
}

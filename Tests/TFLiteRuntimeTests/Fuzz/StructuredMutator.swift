import TestSupport

/// Rewrites one to three of a model's trusted fields (``ModelFieldMap``) with values chosen to
/// break what a kernel assumes: indices just past the end or pointing at another tensor,
/// types that disagree with what an op writes, zero and huge dimensions, quantisation at the
/// edges of its types, extreme scales, option values that select other paths.
enum StructuredMutator {
    static func mutate(_ seed: [UInt8], map: ModelFieldMap, _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = seed
        guard !map.slots.isEmpty else { return bytes }
        for _ in 0...(rng.next() % 3) {
            let slot = map.slots[Int(rng.next() % UInt64(map.slots.count))]
            write(slot, into: &bytes, &rng)
        }
        return bytes
    }

    private static func pick<T>(_ values: [T], _ rng: inout SplitMix64) -> T {
        values[Int(rng.next() % UInt64(values.count))]
    }

    /// An index into `count` things: usually a valid one (a tensor read where another was
    /// meant), sometimes just out of range.
    private static func index(_ count: Int, optional: Bool, _ rng: inout SplitMix64) -> Int64 {
        if count > 0, count < Int.max, rng.next() % 4 != 0 { return Int64(rng.next() % UInt64(count)) }
        let edges: [Int64] = optional ? [-1, -2, Int64(Int32.min), Int64(Int32.max)] : [0, Int64(Int32.max), Int64(UInt32.max)]
        if count < Int.max && rng.next() % 2 == 0 { return Int64(count) }
        return pick(edges, &rng)
    }

    static let dimensions: [Int64] = [0, 1, 2, 3, 4, 7, 16, -1, -2, 1000, 65_535, 1 << 20, Int64(Int32.max), Int64(Int32.min)]
    static let scales: [Float] = [0, -1, .nan, .infinity, -.infinity, 1e-30, 1e30, .leastNonzeroMagnitude, 65_504, 1e-9, 1e9, 3.4e38]
    static let zeroPoints: [Int64] = [-129, 128, 255, 256, -32_769, 32_768, -128, 127, 0,
                                      Int64(Int32.min), Int64(Int32.max), Int64.min, Int64.max]
    static let words: [Int64] = [0, 1, 2, 3, 4, 5, 7, 8, -1, -2, -3, 16, 100, 1 << 16, 1 << 30,
                                 Int64(Int32.max), Int64(Int32.min)]
    static let floatWords: [Float] = [.nan, .infinity, -.infinity, 0, -1, 1e30, -1e30, .leastNormalMagnitude / 4]

    private static func write(_ slot: ModelFieldMap.Slot, into bytes: inout [UInt8], _ rng: inout SplitMix64) {
        let at = slot.offset
        switch slot.kind {
        case .dimension:
            let current = load(bytes, at, 4)
            let value = rng.next() % 3 == 0 ? current + Int64(rng.next() % 3) - 1 : pick(dimensions, &rng)
            store(&bytes, at, 4, value)
        case .tensorType:
            store(&bytes, at, 1, rng.next() % 8 == 0 ? pick([23, 100, -1], &rng) : Int64(rng.next() % 23))
        case .bufferIndex(let count):
            store(&bytes, at, 4, index(count, optional: false, &rng))
        case .tensorIndex(let count):
            store(&bytes, at, 4, index(count, optional: true, &rng))
        case .opcodeIndex(let count):
            store(&bytes, at, 4, index(count, optional: false, &rng))
        case .deprecatedCode:
            store(&bytes, at, 1, Int64(rng.next() % 128))
        case .builtinCode:
            store(&bytes, at, 4, rng.next() % 8 == 0 ? pick([-1, 127, 500, Int64(Int32.max)], &rng) : Int64(rng.next() % 210))
        case .scale:
            let current = Float(bitPattern: UInt32(truncatingIfNeeded: load(bytes, at, 4)))
            let value = rng.next() % 3 == 0 ? current * pick([1e-6, 1e6, -1], &rng) : pick(scales, &rng)
            store(&bytes, at, 4, Int64(value.bitPattern))
        case .zeroPoint:
            store(&bytes, at, 8, pick(zeroPoints, &rng))
        case .quantizedDimension:
            store(&bytes, at, 4, pick([-1, 0, 1, 2, 3, 4, 5, 1000, Int64(Int32.min)], &rng))
        case .option(let size):
            if size == 4 && rng.next() % 4 == 0 {
                store(&bytes, at, 4, Int64(pick(floatWords, &rng).bitPattern))
            } else {
                store(&bytes, at, size, size == 4 ? pick(words, &rng) : Int64(truncatingIfNeeded: rng.next() % 20) - 2)
            }
        case .constantWord:
            let current = load(bytes, at, 4)
            switch rng.next() % 4 {
            case 0: store(&bytes, at, 4, current + Int64(rng.next() % 5) - 2)
            case 1: store(&bytes, at, 4, Int64(pick(floatWords, &rng).bitPattern))
            default: store(&bytes, at, 4, pick(words, &rng))
            }
        case .flag:
            store(&bytes, at, 1, bytes[at] == 0 ? 1 : 0)
        }
    }

    /// The little-endian signed integer of `size` bytes at `at`.
    private static func load(_ bytes: [UInt8], _ at: Int, _ size: Int) -> Int64 {
        var value: UInt64 = 0
        for i in 0..<size where at + i < bytes.count { value |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
        let shift = UInt64(64 - 8 * size)
        return Int64(bitPattern: value << shift) >> shift
    }

    private static func store(_ bytes: inout [UInt8], _ at: Int, _ size: Int, _ value: Int64) {
        for i in 0..<size where at + i < bytes.count {
            bytes[at + i] = UInt8(truncatingIfNeeded: value >> (8 * Int64(i)))
        }
    }
}

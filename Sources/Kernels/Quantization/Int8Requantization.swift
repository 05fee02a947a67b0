/// Per-channel requantisation of the optimised int8 kernels, a vector of ``int8LaneCount``
/// channels at a time and bit-exact with the scalar `QuantizedMultiplier.apply` (TFLite's
/// double-rounding `MultiplyByQuantizedMultiplier`) followed by the offset and clamp.
///
/// The constants of each group of ``int8LaneCount`` channels are stored together so one base
/// pointer reaches all of them: folded bias, Q0.31 multiplier, `2^leftShift`, right shift and
/// the right shift's remainder mask, one vector each. The last group is padded with zeros.
/// Built once at prepare.
struct Int8Requantization: Sendable {
    /// Constant vectors per group of channels.
    static let vectorsPerGroup = 5
    /// `groups * vectorsPerGroup * int8LaneCount` constants.
    let constants: [Int32]
    /// Whether any channel's rescale shifts left (a multiplier above one).
    let hasLeftShift: Bool
    /// Whether any multiplier is `Int32.min` (only a malformed scale gives one), whose doubling
    /// high multiply can overflow and must saturate.
    let saturates: Bool
    let outputOffset: Int32
    let minimum: Int32
    let maximum: Int32

    init(foldedBias: [Int32], multipliers: [QuantizedMultiplier], outputOffset: Int32, activation: ActivationRange<Int32>) {
        let lanes = int8LaneCount
        let groups = (foldedBias.count + lanes - 1) / lanes
        var constants = [Int32](repeating: 0, count: groups * Self.vectorsPerGroup * lanes)
        for c in 0..<foldedBias.count {
            let q = multipliers[multipliers.count == 1 ? 0 : c]
            let left = max(q.shift, 0), right = max(-q.shift, 0)
            let base = c / lanes * Self.vectorsPerGroup * lanes + c % lanes
            constants[base] = foldedBias[c]
            constants[base + lanes] = q.multiplier
            // `multiplyByQuantizedMultiplier` multiplies by `1 << leftShift` in int32.
            constants[base + 2 * lanes] = Int32(1) << Int32(left)
            constants[base + 3 * lanes] = Int32(right)
            constants[base + 4 * lanes] = Int32(truncatingIfNeeded: (Int64(1) << right) - 1)
        }
        self.constants = constants
        hasLeftShift = multipliers.contains { $0.shift > 0 }
        saturates = multipliers.contains { $0.multiplier == .min }
        self.outputOffset = outputOffset
        minimum = activation.min
        maximum = activation.max
    }

    /// Bytes between the constants of consecutive groups.
    static var groupStride: Int { vectorsPerGroup * int8LaneCount * 4 }
}

/// ``Int8Requantization`` unpacked for a kernel's inner loop: the constants' base address and
/// the broadcast offset and clamp.
struct Int8Requantizer {
    let constants: UnsafeRawPointer
    let hasLeftShift: Bool
    let saturates: Bool
    let offset: Int32Lanes
    let minimum: Int32
    let maximum: Int32

    init(_ q: Int8Requantization, constants: UnsafeRawPointer) {
        self.constants = constants
        hasLeftShift = q.hasLeftShift
        saturates = q.saturates
        offset = Int32Lanes(repeating: q.outputOffset)
        minimum = q.minimum
        maximum = q.maximum
    }

    /// Requantises `rowCount` vectors of sums of channel group `group`, `sumStride` bytes apart
    /// at `rows`, and stores the first `count` channels of each, `outStride` elements apart.
    /// The group's constants are loaded once for all rows, and the rows give the multiplies
    /// independent work to overlap: called once per vector, this was a quarter of
    /// efficientnet_lite0's time. Compiled out of line, as one tight function for every caller.
    @inline(never)
    func store(rows: UnsafeRawPointer, sumStride: Int, rowCount: Int, group: Int,
               to out: UnsafeMutablePointer<Int8>, outStride: Int, count: Int) {
        let lanes = int8LaneCount, c = constants + group &* Int8Requantization.groupStride
        let bias = c.loadUnaligned(as: Int32Lanes.self)
        let multiplier = c.loadUnaligned(fromByteOffset: lanes &* 4, as: Int32Lanes.self)
        let leftPower = c.loadUnaligned(fromByteOffset: lanes &* 8, as: Int32Lanes.self)
        let rightShift = c.loadUnaligned(fromByteOffset: lanes &* 12, as: Int32Lanes.self)
        let mask = c.loadUnaligned(fromByteOffset: lanes &* 16, as: Int32Lanes.self)
        for r in 0..<rowCount {
            let sums = rows.loadUnaligned(fromByteOffset: r &* sumStride, as: Int32Lanes.self)
            // The left shift (a multiply by its power of two) only exists for rescales above one.
            let x = hasLeftShift ? (sums &+ bias) &* leftPower : sums &+ bias
            let high = saturates ? saturatingRoundingDoublingHighMul(x, multiplier) : roundingDoublingHighMul(x, multiplier)
            let v = clamped(roundingDivideByPOT(high, rightShift, mask: mask) &+ offset, minimum, maximum)
            let o = out + r &* outStride
            if count == lanes {
                storeNarrowed(v, to: UnsafeMutableRawPointer(o))
            } else {
                for j in 0..<count { o[j] = Int8(truncatingIfNeeded: v[j]) }
            }
        }
    }
}

extension Int8Requantization {
    /// Runs `body` with the constants pinned for a kernel's inner loop.
    @inline(__always)
    func withRequantizer<R>(_ body: (Int8Requantizer) -> R) -> R {
        constants.withUnsafeBytes { body(Int8Requantizer(self, constants: $0.baseAddress!)) }
    }
}

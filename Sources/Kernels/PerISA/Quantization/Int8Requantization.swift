#if TFLITE_ISA_MODULE
import Kernels
#endif
#if TFLITE_AVX512
import X86Intrinsics
#endif
/// Per-channel requantisation of the optimised int8 kernels, a vector of ``int8LaneCount``
/// channels at a time and bit-exact with the scalar `QuantizedMultiplier.apply` (TFLite's
/// double-rounding `MultiplyByQuantizedMultiplier`) followed by the offset and clamp.
///
/// TFLite rounds twice: the doubling high multiply rounds `x * m` at bit 31, then the right
/// shift by `s` rounds half away from zero. Both roundings fold into one exact 64-bit
/// expression, computed with one unsigned 32 x 32 -> 64 multiply (`pmuludq`, plain SSE2) and
/// one shift per lane (the derivation is at ``Int8Requantizer/store(rows:sumStride:rowCount:group:to:outStride:count:)``).
/// That form needs a multiplier in [0, 2^31) and a right shift of at most 31, which every real
/// positive scale gives; anything else (a negative scale in a malformed model) gets no vector
/// requantisation, and its layer keeps the reference kernel.
///
/// The constants of each group of ``int8LaneCount`` channels are stored together so one base
/// pointer reaches all of them, one vector each (see ``Slot``). The last group is padded with
/// zeros. Built once at prepare.
struct Int8Requantization: Sendable {
    /// The constant vectors of a group, in storage order. The first seven hold one int32 per
    /// channel; the last two one uint64 per channel of the even and odd channels.
    enum Slot: Int, CaseIterable {
        /// The folded bias plus `2^(31 - leftShift)`: after the left shift that flips the sum's
        /// sign bit, which reads it as unsigned (see ``Int8Requantizer``).
        case bias
        /// `2^leftShift` (the left shift of rescales above one, done as TFLite does, in int32).
        case leftPower
        /// The output zero point, less the `2^(32 - s)` the unsigned final shift adds.
        case offset
        /// The Q0.31 multiplier `m`.
        case multiplier
        /// `2^31` where the right shift `s` is positive (the negative-value rounding), else 0.
        case negativeRounding
        /// `31 + s`, the total right shift.
        case shift
        /// `2^(32 - s)` when every channel shifts right (`s >= 1`), else 0: the multiplier that
        /// does the shift by `31 + s` as `((Q >> 32) * 2^(32 - s)) >> 31` (see ``Int8Requantizer``).
        case shiftMultiplier
        /// The 64-bit addend `K` of the even channels, then of the odd ones.
        case evenAddend, oddAddend
        /// The signed form's 64-bit addend of the even channels, then of the odd ones (see
        /// ``Int8Requantizer/requantizesSigned``): `2^30 + [s > 0] 2^(30 + s)`, plus
        /// `zeroPoint * 2^(31 + s)` where the layer folds the zero point in
        /// (``Int8Requantization/foldsZeroPoint``).
        case signedEvenAddend, signedOddAddend
    }

    /// `groups * Slot.allCases.count * int8LaneCount` constants.
    let constants: [Int32]
    /// Whether any channel's rescale shifts left (a multiplier above one).
    let hasLeftShift: Bool
    /// Whether every channel's rescale shifts right by at least one bit (`s >= 1`), which
    /// every real layer we have seen does.
    let shiftsRight: Bool
    /// Whether every channel fits the signed form (see ``Int8Requantizer/requantizesSigned``):
    /// no left shift.
    let fitsSignedForm: Bool
    /// Whether the signed form's addends hold the zero point: every right shift is at most 23
    /// bits, so `zeroPoint * 2^(31 + s)` fits beside any product.
    let foldsZeroPoint: Bool
    /// Whether the clamp's minimum is at or above the output zero point (a fused RELU or
    /// RELU6): then every negative sum, which requantises to at most zero, ends at the minimum
    /// whatever its rounding.
    let clampsNegativeSums: Bool
    let minimum: Int32
    let maximum: Int32
    let outputOffset: Int32

    /// Nil when a multiplier is negative or a shift exceeds 31 either way (see the type's notes).
    init?(foldedBias: [Int32], multipliers: [QuantizedMultiplier], outputOffset: Int32, activation: ActivationRange<Int32>) {
        guard multipliers.allSatisfy({ $0.multiplier >= 0 && (-31...31).contains($0.shift) }) else { return nil }
        let lanes = int8LaneCount
        let groups = (foldedBias.count + lanes - 1) / lanes
        let shiftsRight = multipliers.allSatisfy { $0.shift <= -1 }
        let foldsZeroPoint = multipliers.allSatisfy { $0.shift >= -23 }
        var constants = [Int32](repeating: 0, count: groups * Slot.allCases.count * lanes)
        for c in 0..<foldedBias.count {
            let q = multipliers[multipliers.count == 1 ? 0 : c]
            let left = max(q.shift, 0), right = max(-q.shift, 0)
            let base = c / lanes * Slot.allCases.count * lanes + c % lanes
            func set(_ slot: Slot, _ value: Int32) { constants[base + slot.rawValue * lanes] = value }
            set(.bias, foldedBias[c] &+ Int32(truncatingIfNeeded: UInt32(1) << (31 - left)))
            // `multiplyByQuantizedMultiplier` multiplies by `1 << leftShift` in int32.
            set(.leftPower, Int32(1) << Int32(left))
            set(.offset, outputOffset &- Int32(truncatingIfNeeded: UInt64(1) << (32 - right)))
            set(.multiplier, q.multiplier)
            set(.negativeRounding, right > 0 ? Int32.min : 0)
            set(.shift, Int32(31 + right))
            if shiftsRight { set(.shiftMultiplier, Int32(truncatingIfNeeded: UInt32(1) << (32 - right))) }
            // K = 2^30 + [s > 0] (2^(30 + s) - 2^31) - 2^31 m + 2^63, modulo 2^64.
            var addend = (UInt64(1) << 30) &- (UInt64(UInt32(q.multiplier)) << 31) &+ (UInt64(1) << 63)
            if right > 0 { addend = addend &+ (UInt64(1) << (30 + right)) &- (UInt64(1) << 31) }
            let slot = (c % lanes) % 2 == 0 ? Slot.evenAddend : .oddAddend
            // Within its slot's vector the addend is uint64 lane `(c % lanes) / 2`.
            let at = c / lanes * Slot.allCases.count * lanes + slot.rawValue * lanes + (c % lanes) / 2 * 2
            constants[at] = Int32(truncatingIfNeeded: addend)
            constants[at + 1] = Int32(truncatingIfNeeded: addend >> 32)
            if left == 0 {
                let signed = (Int64(1) << 30) + (right > 0 ? Int64(1) << (30 + right) : 0)
                    + (foldsZeroPoint ? Int64(outputOffset) << (31 + right) : 0)
                let signedAt = at + (Slot.signedEvenAddend.rawValue - Slot.evenAddend.rawValue) * lanes
                constants[signedAt] = Int32(truncatingIfNeeded: signed)
                constants[signedAt + 1] = Int32(truncatingIfNeeded: signed >> 32)
            }
        }
        self.constants = constants
        hasLeftShift = multipliers.contains { $0.shift > 0 }
        self.shiftsRight = shiftsRight
        fitsSignedForm = multipliers.allSatisfy { $0.shift <= 0 }
        self.foldsZeroPoint = foldsZeroPoint
        clampsNegativeSums = activation.min >= outputOffset
        minimum = activation.min
        maximum = activation.max
        self.outputOffset = outputOffset
    }

    /// Bytes between the constants of consecutive groups.
    static var groupStride: Int { Slot.allCases.count * int8LaneCount * 4 }
}

/// ``Int8Requantization`` unpacked for a kernel's inner loop: the constants' base address and
/// the clamp.
struct Int8Requantizer {
    let constants: UnsafeRawPointer
    let hasLeftShift: Bool
    let shiftsRight: Bool
    let fitsSignedForm: Bool
    let foldsZeroPoint: Bool
    let clampsNegativeSums: Bool
    let minimum: Int32
    let maximum: Int32
    let outputOffset: Int32

    init(_ q: Int8Requantization, constants: UnsafeRawPointer) {
        self.constants = constants
        hasLeftShift = q.hasLeftShift
        shiftsRight = q.shiftsRight
        fitsSignedForm = q.fitsSignedForm
        foldsZeroPoint = q.foldsZeroPoint
        clampsNegativeSums = q.clampsNegativeSums
        minimum = q.minimum
        maximum = q.maximum
        outputOffset = q.outputOffset
    }

    /// Whether ``store(rows:sumStride:rowCount:group:to:outStride:count:)`` takes the signed
    /// form, which AVX-512 has the instructions for: signed 32 x 32 -> 64 multiplies
    /// (`vpmuldq`) and per-lane arithmetic 64-bit shifts (`vpsravq`). With `x` the sum, it
    /// computes `floor(Q / 2^(31 + s)) + zeroPoint` for `Q = x * m + 2^30 + [s > 0] (2^(30 + s) -
    /// [x < 0] 2^31)` (the same `Q` as the unsigned form, derived below), which stays below
    /// `2^63` in magnitude for every right shift, and clamps only where the activation is
    /// narrower than int8 (else the narrowing saturates). Where every shift is at most 23 bits
    /// (``Int8Requantization/foldsZeroPoint``) the zero point goes into `Q` as
    /// `zeroPoint * 2^(31 + s)`, added exactly at the scale of the shift, which saves the add
    /// (2-3% of mobilenet_v2_int8); past 23 bits that term overflows, and the layer adds the zero
    /// point after the shift (without this, the near-zero channels of 27 of efficientnet_lite0's
    /// layers sent them to the unsigned form).
    /// Where negative sums end at the clamp's minimum anyway (``Int8Requantization/clampsNegativeSums``)
    /// the sign term is left out: a negative `x` then gives at most `floor((2^30 + 2^(30 + s) - 1) /
    /// 2^(31 + s)) = 0` either way. A RELU6 layer then takes about two thirds of the
    /// instructions of the unsigned form.
    var requantizesSigned: Bool {
        #if TFLITE_AVX512
        fitsSignedForm
        #else
        false
        #endif
    }

    /// Requantises `rowCount` vectors of sums of channel group `group`, `sumStride` bytes apart
    /// at `rows`, and stores the first `count` channels of each, `outStride` elements apart.
    /// The group's constants are loaded once for all rows, and the rows give the multiplies
    /// independent work to overlap: called once per vector, this was a quarter of
    /// efficientnet_lite0's time. Compiled out of line, as one tight function for every caller.
    ///
    /// With `x` the (left-shifted) sum, `P = x * m` and `s` the right shift, TFLite computes
    /// `h = floor((P + 2^30) / 2^31)` and then `floor((h + 2^(s-1) - [h < 0]) / 2^s)` (for
    /// `s > 0`; `h` itself for `s = 0`). Since `floor(floor(a) / b) = floor(a / b)`, that is
    /// `floor(Q / 2^(31 + s))` with `Q = P + 2^30 + [s > 0] (2^(30 + s) - [h < 0] 2^31)`. With
    /// `m >= 0`, `h < 0` only when `x < 0`, and where `x < 0` but `h = 0` both forms give 0, so
    /// the test is on `x`'s sign. Reading `x` as `u = x + 2^31` (its sign bit flipped) makes
    /// the product unsigned: `P = u * m - 2^31 m`, and `2^31 - (u & 2^31)` is `[x < 0] 2^31`.
    /// Adding `2^63` makes `Q` positive, so the shift can be a logical one; it adds `2^(32 - s)`
    /// to the result, which the stored offset takes back off. Everything constant is in the
    /// stored addend `K`, leaving per lane: one multiply, one mask, two adds and one shift.
    ///
    /// Without a per-lane shift (``requantizesShiftsByMultiplying``) and with `s >= 1`, the
    /// shift is a multiply: with `H = floor(Q / 2^32)`, `floor(Q / 2^(31 + s))` is
    /// `floor(H / 2^(s - 1))` (the low half of `Q` is below the divisor's `2^32` step), which
    /// is `(H * 2^(32 - s)) >> 31`, a 32 x 32 -> 64 multiply and shifts by constants; and the
    /// result fits 32 bits, so the even and odd halves merge without a mask.
    @inline(never)
    func store(rows: UnsafeRawPointer, sumStride: Int, rowCount: Int, group: Int,
               to out: UnsafeMutablePointer<Int8>, outStride: Int, count: Int) {
        let lanes = int8LaneCount, c = constants + group &* Int8Requantization.groupStride
        #if TFLITE_AVX512
        // The signed form first: it reads its own constants, none of the unsigned form's below.
        if requantizesSigned {
            @inline(__always) func signed<KeepsSign: StaticFlag, Clamps: StaticFlag>(_ keepsSign: KeepsSign.Type, _ clamps: Clamps.Type) {
                if foldsZeroPoint {
                    signedRows(rows, sumStride: sumStride, rowCount: rowCount, constants: UnsafeRawPointer(c), to: out,
                               outStride: outStride, count: count, keepsSign: keepsSign, clamps: clamps, addsZeroPoint: No.self)
                } else {
                    signedRows(rows, sumStride: sumStride, rowCount: rowCount, constants: UnsafeRawPointer(c), to: out,
                               outStride: outStride, count: count, keepsSign: keepsSign, clamps: clamps, addsZeroPoint: Yes.self)
                }
            }
            switch (clampsNegativeSums, minimum == -128 && maximum == 127) {
            case (true, true): signed(No.self, No.self)
            case (true, false): signed(No.self, Yes.self)
            case (false, true): signed(Yes.self, No.self)
            case (false, false): signed(Yes.self, Yes.self)
            }
            return
        }
        #endif
        @inline(__always) func load(_ slot: Int8Requantization.Slot) -> Int32Lanes {
            c.loadUnaligned(fromByteOffset: slot.rawValue &* lanes &* 4, as: Int32Lanes.self)
        }
        @inline(__always) func wide(_ v: Int32Lanes) -> UInt64Lanes { unsafeBitCast(v, to: UInt64Lanes.self) }
        let bias = load(.bias), leftPower = load(.leftPower), offset = load(.offset)
        // The even channels sit in the low halves of the uint64 lanes, the odd ones in the high
        // halves; `pmuludq` reads the low halves, so the odd ones are shifted down.
        let low32 = UInt64Lanes(repeating: 0xFFFF_FFFF)
        let multiplier = wide(load(.multiplier)), rounding = wide(load(.negativeRounding)), shift = wide(load(.shift))
        let evenMultiplier = multiplier & low32, oddMultiplier = multiplier &>> 32
        let evenRounding = rounding & low32, oddRounding = rounding &>> 32
        let evenShift = shift & low32, oddShift = shift &>> 32
        let evenAddend = wide(load(.evenAddend)), oddAddend = wide(load(.oddAddend))
        let shiftMultiplier = wide(load(.shiftMultiplier))
        let evenShiftMultiplier = shiftMultiplier & low32, oddShiftMultiplier = shiftMultiplier &>> 32
        // The loop is written with and without the left shift and with the shift as a
        // multiply, so the common cases do not multiply every vector by one or shift lane by
        // lane.
        @inline(__always) func requantize(leftShifts: Bool, multipliedShift: Bool) {
            for r in 0..<rowCount {
                let sums = rows.loadUnaligned(fromByteOffset: r &* sumStride, as: Int32Lanes.self)
                // The stored bias makes this `x + 2^31`, x's sign bit flipped (see `Slot.bias`).
                let u = wide(leftShifts ? (sums &+ bias) &* leftPower : sums &+ bias)
                let even = u & low32, odd = u &>> 32
                let evenQ = even &* evenMultiplier &+ (even & evenRounding) &+ evenAddend
                let oddQ = odd &* oddMultiplier &+ (odd & oddRounding) &+ oddAddend
                let merged: UInt64Lanes
                if multipliedShift {
                    let evenResult = ((evenQ &>> 32) &* evenShiftMultiplier) &>> 31
                    let oddResult = ((oddQ &>> 32) &* oddShiftMultiplier) &>> 31
                    merged = evenResult | (oddResult &<< 32)
                } else {
                    merged = ((evenQ &>> evenShift) & low32) | ((oddQ &>> oddShift) &<< 32)
                }
                let v = unsafeBitCast(merged, to: Int32Lanes.self) &+ offset
                let narrowed = clampedToInt8(v, minimum, maximum)
                let o = out + r &* outStride
                if count == lanes {
                    UnsafeMutableRawPointer(o).storeBytes(of: narrowed, as: Int8Lanes.self)
                } else {
                    storePrefix(narrowed, count: count, to: o)
                }
            }
        }
        // Each build compiles two of the loops (`requantizesShiftsByMultiplying` is a
        // constant): on the portable build, the rare layer with a shift of zero or to the left
        // takes the left-shift loop, multiplying by one where it does not shift.
        if requantizesShiftsByMultiplying && shiftsRight {
            requantize(leftShifts: false, multipliedShift: true)
        } else if hasLeftShift || requantizesShiftsByMultiplying {
            requantize(leftShifts: true, multipliedShift: false)
        } else {
            requantize(leftShifts: false, multipliedShift: false)
        }
    }
    #if TFLITE_AVX512
    /// The signed form of ``store(rows:sumStride:rowCount:group:to:outStride:count:)`` (see
    /// ``requantizesSigned``) for one group's `constants`, with the sign term where negative sums
    /// can reach the output (`keepsSign`), a clamp where it is narrower than int8 (`clamps`),
    /// and the zero point added where the addends do not hold it (`addsZeroPoint`).
    /// The flags are types so that each combination is its own specialisation with its own loop:
    /// passed as `Bool`s to a function left out of line, they stayed tests in the loop and
    /// the clamp's lanes were narrowed one by one.
    private func signedRows<KeepsSign: StaticFlag, Clamps: StaticFlag, AddsZeroPoint: StaticFlag>(
        _ rows: UnsafeRawPointer, sumStride: Int, rowCount: Int, constants c: UnsafeRawPointer,
        to out: UnsafeMutablePointer<Int8>, outStride: Int, count: Int, keepsSign: KeepsSign.Type, clamps: Clamps.Type,
        addsZeroPoint: AddsZeroPoint.Type
    ) {
        let lanes = int8LaneCount
        @inline(__always) func load(_ slot: Int8Requantization.Slot) -> Int64Lanes {
            c.loadUnaligned(fromByteOffset: slot.rawValue &* lanes &* 4, as: Int64Lanes.self)
        }
        let low32 = Int64Lanes(repeating: 0xFFFF_FFFF)
        // `Slot.bias` holds the folded bias plus `2^31`; adding `Int32.min` takes it off.
        let foldedBias = unsafeBitCast(load(.bias), to: Int32Lanes.self) &+ Int32Lanes(repeating: Int32.min)
        let multiplier = load(.multiplier)
        // Sign-extended from 32 bits, as `vpmuldq` reads its operands.
        let evenMultiplier = (multiplier &<< 32) &>> 32, oddMultiplier = multiplier &>> 32
        let rounding = load(.negativeRounding), shift = load(.shift)
        let evenRounding = rounding & low32, oddRounding = (rounding &>> 32) & low32
        let evenShift = shift & low32, oddShift = shift &>> 32
        let evenAddend = load(.signedEvenAddend), oddAddend = load(.signedOddAddend)
        let zeroPoint = Int32Lanes(repeating: AddsZeroPoint.isSet ? outputOffset : 0)
        var sums = rows, o = out
        for _ in 0..<rowCount {
            let x = unsafeBitCast(sums.loadUnaligned(as: Int32Lanes.self) &+ foldedBias, to: Int64Lanes.self)
            let even = (x &<< 32) &>> 32, odd = x &>> 32
            var evenQ = even &* evenMultiplier &+ evenAddend
            var oddQ = odd &* oddMultiplier &+ oddAddend
            if KeepsSign.isSet {
                // Bit 31 of each sign-extended sum is its sign: `[x < 0] 2^31` where s > 0.
                evenQ &-= even & evenRounding
                oddQ &-= odd & oddRounding
            }
            let merged = ((evenQ &>> evenShift) & low32) | ((oddQ &>> oddShift) &<< 32)
            let v = AddsZeroPoint.isSet ? unsafeBitCast(merged, to: Int32Lanes.self) &+ zeroPoint
                : unsafeBitCast(merged, to: Int32Lanes.self)
            let narrowed = Clamps.isSet ? clampedToInt8(v, minimum, maximum) : saturatedToInt8(v)
            if count == lanes {
                UnsafeMutableRawPointer(o).storeBytes(of: narrowed, as: Int8Lanes.self)
            } else {
                storePrefix(narrowed, count: count, to: o)
            }
            sums += sumStride
            o += outStride
        }
    }
    #endif
}

#if TFLITE_AVX512
/// A flag known from its type, for a loop specialised on it (see `Int8Requantizer.signedRows`).
private protocol StaticFlag { static var isSet: Bool { get } }
private enum Yes: StaticFlag { static var isSet: Bool { true } }
private enum No: StaticFlag { static var isSet: Bool { false } }
#endif

extension Int8Requantization {
    /// The requantisation of an int8 convolution with symmetric weights, whose input zero
    /// point is folded into the bias: `bias + (inputOffset - inputBias) * weightSums[c]` per
    /// output channel, where `inputBias` is what the kernel's input format adds to every value
    /// (128 for sign-flipped bytes).
    init?(weightSums: [Int32], bias: UnsafePointer<Int32>?, convolution params: QuantizedConvParams, inputBias: Int32 = 0) {
        let folded = weightSums.indices.map { c in (bias?[c] ?? 0) &+ (params.inputOffset &- inputBias) &* weightSums[c] }
        self.init(foldedBias: folded, multipliers: params.outputMultipliers, outputOffset: params.outputOffset,
                  activation: params.activation)
    }

    /// Runs `body` with the constants pinned for a kernel's inner loop.
    @inline(__always)
    func withRequantizer<R>(_ body: (Int8Requantizer) -> R) -> R {
        constants.withUnsafeBytes { body(Int8Requantizer(self, constants: $0.baseAddress!)) }
    }
}

/// Stores the first `count` (below the vector's width) lanes of `v`: eight at once when there
/// are as many (an 8-channel layer's whole row), then one by one.
@inline(__always)
private func storePrefix(_ v: Int8Lanes, count: Int, to out: UnsafeMutablePointer<Int8>) {
    var j = 0
    if count >= 8 {
        let low = withUnsafeBytes(of: v) { $0.loadUnaligned(as: UInt64.self) }
        UnsafeMutableRawPointer(out).storeBytes(of: low, as: UInt64.self)
        j = 8
    }
    while j < count {
        out[j] = v[j]
        j += 1
    }
}

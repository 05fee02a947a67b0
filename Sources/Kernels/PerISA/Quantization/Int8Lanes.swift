#if TFLITE_ISA_MODULE
import Kernels
#endif
// The vector width of the optimised int8 kernels, which depends on the variant like
// the float GEMM tile: 16 lanes (one zmm register of int32) in the AVX-512 variants,
// 8 lanes otherwise (two xmm registers on SSE2, one ymm on AVX2).
//
// Lane conversions are spelled out lane by lane in helpers at the end of this file: the
// standard library's generic `init(truncatingIfNeeded:)` stays a call to a lane-loop function
// inside large kernels, while the explicit form becomes one instruction (`vpmovsxbd`,
// `vpmovqd`, ...).
#if TFLITE_AVX512
/// Whether the requantisation divides by a per-channel power of two with a multiply instead of
/// a per-lane shift (see ``Int8Requantizer``): AVX-512 has the shift (`vpsrlvq`).
let requantizesShiftsByMultiplying = false
#elseif TFLITE_AVX2
/// Whether the requantisation divides by a per-channel power of two with a multiply instead of
/// a per-lane shift (see ``Int8Requantizer``): AVX2 has the shift (`vpsravd`).
let requantizesShiftsByMultiplying = false
#else
/// Whether the requantisation divides by a per-channel power of two with a multiply instead of
/// a per-lane shift (see ``Int8Requantizer``): SSE2 shifts every lane of a register by one
/// count, so a shift per channel took two shifts and a blend per register.
let requantizesShiftsByMultiplying = true
#endif

#if TFLITE_AVX512
/// A vector of the optimised int8 kernels: one lane per int32 lane of a zmm register.
typealias Int8KernelVector<Scalar: SIMDScalar> = SIMD16<Scalar>
/// Half as many lanes as ``Int8KernelVector``.
typealias Int8KernelHalfVector<Scalar: SIMDScalar> = SIMD8<Scalar>
/// Twice as many lanes as ``Int8KernelVector``.
typealias Int8KernelDoubleVector<Scalar: SIMDScalar> = SIMD32<Scalar>
#else
/// A vector of the optimised int8 kernels: one lane per int32 lane of two xmm registers
/// (SSE2) or one ymm register (AVX2).
typealias Int8KernelVector<Scalar: SIMDScalar> = SIMD8<Scalar>
/// Half as many lanes as ``Int8KernelVector``.
typealias Int8KernelHalfVector<Scalar: SIMDScalar> = SIMD4<Scalar>
/// Twice as many lanes as ``Int8KernelVector``.
typealias Int8KernelDoubleVector<Scalar: SIMDScalar> = SIMD16<Scalar>
#endif

/// One vector of int32 lanes of the optimised int8 kernels.
typealias Int32Lanes = Int8KernelVector<Int32>
/// Float lanes as wide as ``Int32Lanes``.
typealias FloatLanes = Int8KernelVector<Float>
/// The same bytes as ``Int32Lanes`` seen as uint64 lanes (pairs of int32 lanes).
typealias UInt64Lanes = Int8KernelHalfVector<UInt64>
/// The same bytes as ``Int32Lanes`` seen as int64 lanes (pairs of int32 lanes).
typealias Int64Lanes = Int8KernelHalfVector<Int64>
/// One vector of int8 results, one per ``Int32Lanes`` lane.
typealias Int8Lanes = Int8KernelVector<Int8>
/// One vector of int16 values, one per ``Int32Lanes`` lane.
typealias Int16Lanes = Int8KernelVector<Int16>
/// Pairs of int16 values, one pair per ``Int32Lanes`` lane.
typealias Int16PairLanes = Int8KernelDoubleVector<Int16>
/// The int8 values that widen to one ``Int16PairLanes`` (one `vpmovsxbw` where there is one).
typealias Int8PairBytes = Int8KernelDoubleVector<Int8>

/// Loads `Int32Lanes.scalarCount` int8 values sign-extended to int32.
@inline(__always)
func loadInt8AsInt32(_ p: UnsafeRawPointer) -> Int32Lanes {
    let v = p.loadUnaligned(as: Int8Lanes.self)
    #if TFLITE_AVX512
    return Int32Lanes(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]),
                      Int32(v[8]), Int32(v[9]), Int32(v[10]), Int32(v[11]), Int32(v[12]), Int32(v[13]), Int32(v[14]), Int32(v[15]))
    #else
    return Int32Lanes(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
    #endif
}

/// Each lane clamped to `lo...hi` (both within int8) and narrowed. Each lane must be one
/// expression: building an int32 or int16 vector first and narrowing it afterwards left the
/// vectoriser with a chain it scalarised into branches.
@_transparent
func clampedToInt8(_ v: Int32Lanes, _ lo: Int32, _ hi: Int32) -> Int8Lanes {
    #if TFLITE_AVX512
    // `vpmaxsd`, `vpminsd`, `vpmovdb`.
    @inline(__always) func c(_ x: Int32) -> Int8 { Int8(truncatingIfNeeded: min(max(x, lo), hi)) }
    return Int8Lanes(c(v[0]), c(v[1]), c(v[2]), c(v[3]), c(v[4]), c(v[5]), c(v[6]), c(v[7]),
                     c(v[8]), c(v[9]), c(v[10]), c(v[11]), c(v[12]), c(v[13]), c(v[14]), c(v[15]))
    #else
    // SSE2 has no 32-bit or byte min/max, but it has a saturating narrow to int16 (`packssdw`)
    // and int16 min/max (`pmaxsw`/`pminsw`): saturating first keeps the order of every value,
    // so the int16 clamp gives the int32 one. Five instructions for eight lanes, where the
    // int32 clamp took twenty.
    let l = Int16(truncatingIfNeeded: lo), h = Int16(truncatingIfNeeded: hi)
    @inline(__always) func c(_ x: Int32) -> Int8 {
        Int8(truncatingIfNeeded: min(max(Int16(truncatingIfNeeded: min(max(x, -32768), 32767)), l), h))
    }
    return Int8Lanes(c(v[0]), c(v[1]), c(v[2]), c(v[3]), c(v[4]), c(v[5]), c(v[6]), c(v[7]))
    #endif
}

/// Every int16 lane of `v` sign-extended to int32, spelled out lane by lane: the generic
/// conversion stays a call.
@inline(__always)
func widenedPairs(_ v: Int16PairLanes) -> Int8KernelDoubleVector<Int32> {
    #if TFLITE_AVX512
    SIMD32(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]),
           Int32(v[8]), Int32(v[9]), Int32(v[10]), Int32(v[11]), Int32(v[12]), Int32(v[13]), Int32(v[14]), Int32(v[15]),
           Int32(v[16]), Int32(v[17]), Int32(v[18]), Int32(v[19]), Int32(v[20]), Int32(v[21]), Int32(v[22]), Int32(v[23]),
           Int32(v[24]), Int32(v[25]), Int32(v[26]), Int32(v[27]), Int32(v[28]), Int32(v[29]), Int32(v[30]), Int32(v[31]))
    #else
    SIMD16(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]),
           Int32(v[8]), Int32(v[9]), Int32(v[10]), Int32(v[11]), Int32(v[12]), Int32(v[13]), Int32(v[14]), Int32(v[15]))
    #endif
}

/// The sums of adjacent lanes of `p` (`p[2i] + p[2i + 1]`), spelled out lane by lane.
@inline(__always)
func adjacentLaneSums(_ p: Int8KernelDoubleVector<Int32>) -> Int32Lanes {
    #if TFLITE_AVX512
    Int32Lanes(p[0] &+ p[1], p[2] &+ p[3], p[4] &+ p[5], p[6] &+ p[7], p[8] &+ p[9], p[10] &+ p[11],
               p[12] &+ p[13], p[14] &+ p[15], p[16] &+ p[17], p[18] &+ p[19], p[20] &+ p[21], p[22] &+ p[23],
               p[24] &+ p[25], p[26] &+ p[27], p[28] &+ p[29], p[30] &+ p[31])
    #else
    Int32Lanes(p[0] &+ p[1], p[2] &+ p[3], p[4] &+ p[5], p[6] &+ p[7], p[8] &+ p[9], p[10] &+ p[11],
               p[12] &+ p[13], p[14] &+ p[15])
    #endif
}

/// The lanes of `a` and `b` alternating (`a[0], b[0], a[1], b[1], ...`): each int32 lane's
/// pair for ``pairProducts(_:_:)`` (`punpcklwd` and `punpckhwd` on SSE2).
@inline(__always)
func interleaved(_ a: Int16Lanes, _ b: Int16Lanes) -> Int16PairLanes {
    #if TFLITE_AVX512
    Int16PairLanes(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7],
                   a[8], b[8], a[9], b[9], a[10], b[10], a[11], b[11], a[12], b[12], a[13], b[13], a[14], b[14], a[15], b[15])
    #else
    Int16PairLanes(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
    #endif
}

/// Loads ``int8PairLaneCount`` int8 values sign-extended to int16.
@inline(__always)
func loadInt8AsInt16Pairs(_ p: UnsafeRawPointer) -> Int16PairLanes {
    int8AsInt16(p.loadUnaligned(as: Int8PairBytes.self))
}

/// Each int32 lane's pair of int16 lanes of `a` and `b` multiplied and summed:
/// `a[2i] * b[2i] + a[2i + 1] * b[2i + 1]`. Written as a widened product whose even and odd
/// halves are added, the form LLVM turns into one `pmaddwd` or `vpmaddwd` (or, added to an
/// accumulator with AVX-512 VNNI, one `vpdpwssd`). The halves must not be spelled out lane by
/// lane: the GEMM tile passes a broadcast pair, and when the halves were written out, LLVM
/// folded the halves of the broadcast into two broadcasts before looking for the pair
/// product, and the tile became two `vpmulld` and two permutes per row, ten times slower
/// (`evenHalf` is inlined after that folding has run).
@inline(__always)
func pairProducts(_ a: Int16PairLanes, _ b: Int16PairLanes) -> Int32Lanes {
    let p = widenedPairs(a) &* widenedPairs(b)
    return p.evenHalf &+ p.oddHalf
}

/// ``pairProducts(_:_:)`` for two full vectors (no broadcast), with the halves spelled out
/// lane by lane. It must stay a function of its own: a second caller of `pairProducts` made
/// the compiler share one out-of-line specialisation of `evenHalf` and `oddHalf` between the
/// two, and the GEMM tile lost its pair-product instruction to calls.
@inline(__always)
func vectorPairProducts(_ a: Int16PairLanes, _ b: Int16PairLanes) -> Int32Lanes {
    adjacentLaneSums(widenedPairs(a) &* widenedPairs(b))
}

/// The int16 pair at byte offset `4 * pair` of `row` in every lane: one 32-bit broadcast.
@inline(__always)
func broadcastPair(_ row: UnsafeRawPointer, _ pair: Int) -> Int16PairLanes {
    broadcastPair(row, byteOffset: 4 &* pair)
}

/// The int16 pair at `byteOffset` of `row` in every lane.
@inline(__always)
func broadcastPair(_ row: UnsafeRawPointer, byteOffset: Int) -> Int16PairLanes {
    unsafeBitCast(Int32Lanes(repeating: row.loadUnaligned(fromByteOffset: byteOffset, as: Int32.self)),
                  to: Int16PairLanes.self)
}

/// Lanes per vector of the optimised int8 kernels (16 or 8).
let int8LaneCount = Int32Lanes.scalarCount
/// Int16 values per pair-product vector (32 or 16): two per ``Int32Lanes`` lane.
let int8PairLaneCount = Int16PairLanes.scalarCount

/// `saturatingRoundingDoublingHighMul` lane by lane, except in its one overflowing case
/// (`Int32.min * Int32.min`), which gives `Int32.min` instead of `Int32.max`: callers whose
/// multipliers may be `Int32.min` use ``saturatingRoundingDoublingHighMul(_:_:)``.
///
/// gemmlowp's nudge and truncating division together equal `(x * m + 2^30) >> 31` with a
/// flooring shift, for either sign of the product; only the low 32 bits of that shift are
/// kept. The int32 lanes are treated as pairs in uint64 lanes and multiplied as unsigned
/// 32 x 32 -> 64 products (`pmuludq`, plain SSE2; the signed form needs 64-bit arithmetic
/// shifts that SSE2 lacks). Reading a negative lane as unsigned adds 2^32 to it, which adds
/// 2^32 times the other factor to the product, and so twice that factor to the shifted
/// result: the last step takes it back off (mod 2^32, like the truncation).
@inline(__always)
func roundingDoublingHighMul(_ x: Int32Lanes, _ m: Int32Lanes) -> Int32Lanes {
    let xw = unsafeBitCast(x, to: UInt64Lanes.self), mw = unsafeBitCast(m, to: UInt64Lanes.self)
    let low32 = UInt64Lanes(repeating: 0xFFFF_FFFF), half = UInt64Lanes(repeating: 1 << 30)
    let even = ((xw & low32) &* (mw & low32) &+ half) &>> 31
    let odd = ((xw &>> 32) &* (mw &>> 32) &+ half) &>> 31
    let unsignedHigh = unsafeBitCast((even & low32) | (odd &<< 32), to: Int32Lanes.self)
    let excess = ((x &>> 31) & m) &+ ((m &>> 31) & x)
    return unsignedHigh &- (excess &<< 1)
}

/// `saturatingRoundingDoublingHighMul` lane by lane. `Int32.min` only comes out of
/// ``roundingDoublingHighMul(_:_:)`` in the overflowing case (every other product is above
/// -2^62), so that value is replaced by `Int32.max`.
@inline(__always)
func saturatingRoundingDoublingHighMul(_ x: Int32Lanes, _ m: Int32Lanes) -> Int32Lanes {
    let high = roundingDoublingHighMul(x, m)
    return high.replacing(with: .max, where: high .== Int32Lanes(repeating: .min))
}

/// `roundingDivideByPOT` lane by lane; `mask` is `2^exponent - 1` per lane. Round half away
/// from zero: `x >> 31` is -1 for a negative value, raising the threshold by one, and
/// `(threshold - remainder) >> 31` is -1 exactly when the remainder exceeds it (both lie in
/// [0, 2^31), so the difference cannot wrap).
@inline(__always)
func roundingDivideByPOT(_ x: Int32Lanes, _ exponent: Int32Lanes, mask: Int32Lanes) -> Int32Lanes {
    let remainder = x & mask
    let threshold = (mask &>> 1) &- (x &>> 31)
    return (x &>> exponent) &- ((threshold &- remainder) &>> 31)
}

/// Eight int8 lanes sign-extended to int16.
@inline(__always)
func int8AsInt16(_ v: SIMD8<Int8>) -> SIMD8<Int16> {
    SIMD8(Int16(v[0]), Int16(v[1]), Int16(v[2]), Int16(v[3]), Int16(v[4]), Int16(v[5]), Int16(v[6]), Int16(v[7]))
}

/// Sixteen int8 lanes sign-extended to int16.
@inline(__always)
func int8AsInt16(_ v: SIMD16<Int8>) -> SIMD16<Int16> {
    SIMD16(Int16(v[0]), Int16(v[1]), Int16(v[2]), Int16(v[3]), Int16(v[4]), Int16(v[5]), Int16(v[6]), Int16(v[7]),
           Int16(v[8]), Int16(v[9]), Int16(v[10]), Int16(v[11]), Int16(v[12]), Int16(v[13]), Int16(v[14]), Int16(v[15]))
}

/// Thirty-two int8 lanes sign-extended to int16.
@inline(__always)
func int8AsInt16(_ v: SIMD32<Int8>) -> SIMD32<Int16> {
    SIMD32(Int16(v[0]), Int16(v[1]), Int16(v[2]), Int16(v[3]), Int16(v[4]), Int16(v[5]), Int16(v[6]), Int16(v[7]),
           Int16(v[8]), Int16(v[9]), Int16(v[10]), Int16(v[11]), Int16(v[12]), Int16(v[13]), Int16(v[14]), Int16(v[15]),
           Int16(v[16]), Int16(v[17]), Int16(v[18]), Int16(v[19]), Int16(v[20]), Int16(v[21]), Int16(v[22]), Int16(v[23]),
           Int16(v[24]), Int16(v[25]), Int16(v[26]), Int16(v[27]), Int16(v[28]), Int16(v[29]), Int16(v[30]), Int16(v[31]))
}

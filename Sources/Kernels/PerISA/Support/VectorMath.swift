#if TFLITE_ISA_MODULE
import Kernels
#endif
/// Vector transcendental functions for the hot activations, accurate to a few ulps.
enum VectorMath {
    /// `exp(x)` lane by lane: `x = n ln2 + r` with `|r| <= ln2 / 2`, a degree-7 polynomial for
    /// `exp(r)` (the classic Cephes `expf` minimax coefficients), and `2^n` built in the
    /// exponent bits. Inputs are clamped to [-87.3, 88.3] so `2^n` stays a normal float:
    /// results saturate near 1.2e-38 and 2.2e38 instead of reaching 0 or infinity.
    @_transparent
    static func exp(_ x: WideFloats) -> WideFloats {
        let clamped = clamp(x, -87.3, 88.3)
        // Round x / ln2 to an integer with the 1.5 * 2^23 trick: after adding it, the low
        // mantissa bits hold the rounded value.
        let magic = WideFloats(repeating: 12_582_912)
        let shifted = clamped * WideFloats(repeating: 1.442_695_04) + magic
        let n = shifted - magic
        let r = clamped - n * WideFloats(repeating: 0.693_359_375) - n * WideFloats(repeating: -2.121_944_4e-4)
        var p = WideFloats(repeating: 1.987_569_15e-4)
        p = p * r + WideFloats(repeating: 1.398_199_950_7e-3)
        p = p * r + WideFloats(repeating: 8.333_451_907_3e-3)
        p = p * r + WideFloats(repeating: 4.166_579_589_4e-2)
        p = p * r + WideFloats(repeating: 1.666_666_545_9e-1)
        p = p * r + WideFloats(repeating: 5.000_000_120_1e-1)
        let poly = p * (r * r) + r + WideFloats(repeating: 1)
        let bits = unsafeBitCast(shifted, to: WideInts.self) &- 0x4B40_0000
        let scale = unsafeBitCast((bits &+ 127) &<< 23, to: WideFloats.self)
        return poly * scale
    }

    /// Each lane as `Swift.min(Swift.max(x, lo), hi)` gives it (NaN kept), as two selects.
    /// `clampedLanes`'s lane loop, fine in the GEMM tiles, stayed scalar here with constant
    /// bounds: a compare and a branch per lane, three quarters of LOGISTIC's time.
    @_transparent
    static func clamp(_ x: WideFloats, _ lo: Float, _ hi: Float) -> WideFloats {
        let low = WideFloats(repeating: lo), high = WideFloats(repeating: hi)
        let raised = x.replacing(with: low, where: x .<= low)
        return raised.replacing(with: high, where: raised .> high)
    }
}

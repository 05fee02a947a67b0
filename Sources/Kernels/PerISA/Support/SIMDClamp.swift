#if TFLITE_ISA_MODULE
import Kernels
#endif
#if TFLITE_AVX512
import X86Intrinsics
#endif

/// Float vectors whose clamp is written for the concrete type, for kernels generic over the
/// vector width. A generic lane loop (`for i in v.indices`) stayed an out-of-line call from
/// inside the depthwise span's loop, one call per stored vector; each conformance here is
/// inlined as `vmaxps`/`vminps`.
///
/// The AVX-512 variants clamp through `X86Intrinsics.clampVector`, which is the two
/// instructions by construction and, being transparent, is expanded even in the large GEMM
/// tiles, where the optimiser's inliner left the lane loop's `Swift.min`/`Swift.max` as calls.
/// Elsewhere the clamp is a plain lane loop over `Swift.min`/`Swift.max`, which LLVM turns into
/// vector min/max instructions; the standard library's generic `pointwiseMin` / `pointwiseMax`
/// and masked `replacing(with:where:)` both measured two to three times slower on x86-64.
/// Both clamp as LiteRT does apart from the sign of a zero result: the intrinsics keep a -0
/// above a bound of 0, as LiteRT's `std::max` does, where the lane loop returns +0.
protocol ClampableFloatLanes: SIMD where Scalar == Float {
    /// Each lane clamped to `lo...hi`.
    func clampedLanes(_ lo: Float, _ hi: Float) -> Self
}

extension SIMD4: ClampableFloatLanes where Scalar == Float {
    @inline(__always)
    func clampedLanes(_ lo: Float, _ hi: Float) -> SIMD4<Float> {
        var r = self
        for i in 0..<4 { r[i] = Swift.min(Swift.max(r[i], lo), hi) }
        return r
    }
}

extension SIMD8: ClampableFloatLanes where Scalar == Float {
    @_transparent
    func clampedLanes(_ lo: Float, _ hi: Float) -> SIMD8<Float> {
        #if TFLITE_AVX512
        clampVector(self, SIMD8(repeating: lo), SIMD8(repeating: hi))
        #else
        var r = self
        for i in 0..<8 { r[i] = Swift.min(Swift.max(r[i], lo), hi) }
        return r
        #endif
    }
}

extension SIMD16: ClampableFloatLanes where Scalar == Float {
    // Transparent: the AVX-512 GEMM tiles clamp sixteen rows in straight-line code, and there
    // the inliner left this an out-of-line call per row.
    @_transparent
    func clampedLanes(_ lo: Float, _ hi: Float) -> SIMD16<Float> {
        #if TFLITE_AVX512
        clampVector(self, SIMD16(repeating: lo), SIMD16(repeating: hi))
        #else
        var r = self
        for i in 0..<16 { r[i] = Swift.min(Swift.max(r[i], lo), hi) }
        return r
        #endif
    }
}

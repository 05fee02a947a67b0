#if TFLITE_ISA_MODULE
import Kernels
#endif
/// Lane-wise clamp of a float vector. Written as a plain lane loop over `Swift.min`/`Swift.max`,
/// which LLVM turns into vector min/max instructions; the standard library's generic
/// `pointwiseMin` / `pointwiseMax` and masked `replacing(with:where:)` both measured two to
/// three times slower on x86-64.
@inline(__always)
func clampLanes(_ v: SIMD8<Float>, _ lo: Float, _ hi: Float) -> SIMD8<Float> {
    var r = v
    for i in 0..<8 { r[i] = Swift.min(Swift.max(r[i], lo), hi) }
    return r
}

/// Float vectors whose clamp is written for the concrete type, for kernels generic over the
/// vector width. A generic lane loop (`for i in v.indices`) stayed an out-of-line call from
/// inside the depthwise span's loop, one call per stored vector; each conformance here is a
/// plain lane loop over a fixed count, inlined as `vmaxps`/`vminps`.
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
    @inline(__always)
    func clampedLanes(_ lo: Float, _ hi: Float) -> SIMD8<Float> { clampLanes(self, lo, hi) }
}

extension SIMD16: ClampableFloatLanes where Scalar == Float {
    // Transparent: the AVX-512 GEMM tiles clamp sixteen rows in straight-line code, and there
    // the inliner left this an out-of-line call per row.
    @_transparent
    func clampedLanes(_ lo: Float, _ hi: Float) -> SIMD16<Float> {
        var r = self
        for i in 0..<16 { r[i] = Swift.min(Swift.max(r[i], lo), hi) }
        return r
    }
}

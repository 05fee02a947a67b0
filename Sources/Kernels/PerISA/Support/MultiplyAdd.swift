#if TFLITE_ISA_MODULE
import Kernels
#endif

/// `acc += a * b` lane by lane: one fused multiply-add per vector in the variants compiled for
/// FMA (AVX2, AVX-512); elsewhere a separate multiply and add. Swift does not contract `a + b * c`
/// into a fused multiply-add, and without an FMA target `addProduct` becomes a C library `fmaf`
/// call per lane, so the spelling must follow the variant.
@inline(__always)
func multiplyAdd<V: SIMD>(_ acc: inout V, _ a: V, _ b: V) where V.Scalar == Float {
    #if TFLITE_FMA
    acc.addProduct(a, b)
    #else
    acc = acc + a * b
    #endif
}

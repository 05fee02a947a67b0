#if TFLITE_ISA_MODULE
import Kernels
#endif
/// The float vector the elementwise kernels of this copy work in: 16 lanes where AVX-512 gives
/// 32 registers of that width, 8 below it (one ymm with AVX2, two xmm with SSE2). Each lane is
/// computed by the same operations whatever the width, so every copy gives the same bits.
/// ``WideInts`` is the integer vector as wide, for building `2^n` in the exponent bits.
#if TFLITE_AVX512
typealias WideFloats = SIMD16<Float>
typealias WideInts = SIMD16<Int32>
#else
typealias WideFloats = SIMD8<Float>
typealias WideInts = SIMD8<Int32>
#endif

// x86 instructions that LLVM does not form from plain Swift, reached through the standard
// library's `Builtin` module (this target alone is compiled with `-parse-stdlib`).
//
// Every function is `@_alwaysEmitIntoClient`: its body is compiled into the calling kernel
// module, with that module's `-target-cpu`, and only kernel variants built for the instruction
// set may call it.
import Swift

#if arch(x86_64)
/// `acc + ` the sums of four byte products per int32 lane (`vpdpbusd`, AVX-512 VNNI):
/// lane `i` adds `u[4i] * s[4i] + ... + u[4i + 3] * s[4i + 3]`, where `unsignedBytes`
/// holds 64 uint8 values and `signedBytes` 64 int8 values (each vector seen as bytes).
/// Every product and every four-product sum fits int32 exactly; the accumulation wraps.
@_alwaysEmitIntoClient @inline(__always)
public func accumulatingQuadProducts(_ acc: SIMD16<Int32>, unsignedBytes: SIMD16<Int32>,
                                     signedBytes: SIMD16<Int32>) -> SIMD16<Int32> {
    unsafeBitCast(Builtin.int_x86_avx512_vpdpbusd_512(acc._storage._value, unsignedBytes._storage._value,
                                                      signedBytes._storage._value),
                  to: SIMD16<Int32>.self)
}

/// The 256-bit form of ``accumulatingQuadProducts(_:unsignedBytes:signedBytes:)`` (`vpdpbusd`
/// on ymm registers, AVX-512 VNNI with VL): 8 lanes of 32 bytes each.
@_alwaysEmitIntoClient @inline(__always)
public func accumulatingQuadProducts(_ acc: SIMD8<Int32>, unsignedBytes: SIMD8<Int32>,
                                     signedBytes: SIMD8<Int32>) -> SIMD8<Int32> {
    unsafeBitCast(Builtin.int_x86_avx512_vpdpbusd_256(acc._storage._value, unsignedBytes._storage._value,
                                                      signedBytes._storage._value),
                  to: SIMD8<Int32>.self)
}
#endif

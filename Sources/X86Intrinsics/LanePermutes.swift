// See ByteDotProducts.swift for how these wrappers reach the instructions.
import Swift

#if arch(x86_64)
/// The 32-bit lanes of `v` rearranged: lane `i` is `v[index[i] & 15]` (`vpermd`, AVX-512 F).
/// Spelled as a Swift lane-by-lane initializer, LLVM rebuilt the vector one lane at a time.
@_alwaysEmitIntoClient @inline(__always)
public func permutedLanes(_ v: SIMD16<UInt32>, index: SIMD16<UInt32>) -> SIMD16<UInt32> {
    unsafeBitCast(Builtin.int_x86_avx512_permvar_si_512(v._storage._value, index._storage._value),
                  to: SIMD16<UInt32>.self)
}

/// The bytes of each 16-byte block of `v` rearranged within that block: byte `i` is byte
/// `control[i] & 15` of its own block, or zero when bit 7 of `control[i]` is set (`vpshufb`,
/// AVX-512 BW).
@_alwaysEmitIntoClient @inline(__always)
public func shuffledBytesInBlocks(_ v: SIMD64<UInt8>, control: SIMD64<UInt8>) -> SIMD64<UInt8> {
    unsafeBitCast(Builtin.int_x86_avx512_pshuf_b_512(v._storage._value, control._storage._value),
                  to: SIMD64<UInt8>.self)
}
#endif

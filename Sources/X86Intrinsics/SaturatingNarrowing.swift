// See ByteDotProducts.swift for how these wrappers reach the instructions.
import Swift

#if arch(x86_64)
/// Each int32 lane narrowed to int8 with signed saturation (`vpmovsdb`, AVX-512 F): values
/// below -128 become -128, above 127 become 127. Spelled as a clamp and a truncation lane by
/// lane, LLVM scalarised it when both bounds were constants.
@_alwaysEmitIntoClient @inline(__always)
public func saturatedToInt8(_ v: SIMD16<Int32>) -> SIMD16<Int8> {
    unsafeBitCast(Builtin.int_x86_avx512_mask_pmovs_db_512(v._storage._value, SIMD16<Int8>()._storage._value,
                                                           Int16(-1)._value),
                  to: SIMD16<Int8>.self)
}
#endif

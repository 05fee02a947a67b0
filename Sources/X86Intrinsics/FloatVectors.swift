// See ByteDotProducts.swift for how these wrappers reach the instructions.
//
// The float GEMM tiles store and clamp a tile's rows in straight-line code after their
// multiply-adds. The standard library spells these as generic functions (`storeBytes`,
// `Swift.min`, `Swift.max`) that only the optimiser's inliner expands, and in a function as large
// as a tile it stops expanding them: each stored row became three calls. These are
// `@_transparent`, which the compiler expands before optimising, whatever the caller's size.
import Swift

#if arch(x86_64)
/// The 16 floats at `pointer`, which need not be aligned (`vmovups`).
@_alwaysEmitIntoClient @_transparent
public func loadVector(_ pointer: UnsafeRawPointer) -> SIMD16<Float> {
    Builtin.loadRaw(pointer._rawValue)
}

/// The 8 floats at `pointer`, which need not be aligned (`vmovups`, 256 bits).
@_alwaysEmitIntoClient @_transparent
public func loadHalfVector(_ pointer: UnsafeRawPointer) -> SIMD8<Float> {
    Builtin.loadRaw(pointer._rawValue)
}

/// Stores `v` at `pointer`, which need not be aligned (`vmovups`).
@_alwaysEmitIntoClient @_transparent
public func storeVector(_ v: SIMD16<Float>, to pointer: UnsafeMutableRawPointer) {
    Builtin.storeRaw(v, pointer._rawValue)
}

/// Stores `v` at `pointer`, which need not be aligned (`vmovups`).
@_alwaysEmitIntoClient @_transparent
public func storeVector(_ v: SIMD8<Float>, to pointer: UnsafeMutableRawPointer) {
    Builtin.storeRaw(v, pointer._rawValue)
}

/// Each lane of `v` clamped to `lo...hi` as LiteRT clamps a fused activation,
/// `min(max(x, lo), hi)` with `max(x, lo) = x < lo ? lo : x`: `vmaxps` from `lo`, then `vminps`
/// from `hi`. A NaN lane stays NaN and a -0 stays -0 above a bound of 0.
@_alwaysEmitIntoClient @_transparent
public func clampVector(_ v: SIMD16<Float>, _ lo: SIMD16<Float>, _ hi: SIMD16<Float>) -> SIMD16<Float> {
    // The last operand is the rounding control: 4, the current direction (no rounding
    // override; min and max do not round).
    let above = Builtin.int_x86_avx512_max_ps_512(lo._storage._value, v._storage._value, Int32(4)._value)
    return unsafeBitCast(Builtin.int_x86_avx512_min_ps_512(hi._storage._value, above, Int32(4)._value),
                         to: SIMD16<Float>.self)
}

/// The 8-lane clamp (`vmaxps` and `vminps` on ymm registers).
@_alwaysEmitIntoClient @_transparent
public func clampVector(_ v: SIMD8<Float>, _ lo: SIMD8<Float>, _ hi: SIMD8<Float>) -> SIMD8<Float> {
    let above = Builtin.int_x86_avx_max_ps_256(lo._storage._value, v._storage._value)
    return unsafeBitCast(Builtin.int_x86_avx_min_ps_256(hi._storage._value, above), to: SIMD8<Float>.self)
}
#endif

#if TFLITE_ISA_MODULE
import Kernels
#endif
/// A function of one float, on ``WideFloats`` and on single floats, each lane computed as the
/// single float is: the elementwise kernels' activations and clamps. Types with transparent
/// methods rather than closures: a closure over ``WideFloats`` stayed a call per vector that
/// split it into four xmm quarters (HARD_SWISH ran 20 times slower).
protocol LaneFunction {
    func lanes(_ x: WideFloats) -> WideFloats
    func value(_ x: Float) -> Float
}

/// The identity: no fused activation.
struct Unbounded: LaneFunction {
    @_transparent func lanes(_ x: WideFloats) -> WideFloats { x }
    @_transparent func value(_ x: Float) -> Float { x }
}

/// The clamp to `lo...hi` as the reference computes it, `Swift.min(Swift.max(x, lo), hi)`: the
/// RELU family and fused activations.
struct Bounds: LaneFunction {
    let lo: Float, hi: Float
    @_transparent func lanes(_ x: WideFloats) -> WideFloats { VectorMath.clamp(x, lo, hi) }
    @_transparent func value(_ x: Float) -> Float { Swift.min(Swift.max(x, lo), hi) }
}

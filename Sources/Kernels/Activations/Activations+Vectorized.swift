extension Activations {
    /// Applies `function` to `count` values (`output` may alias `input`). The RELU family,
    /// LEAKY_RELU, HARD_SWISH and LOGISTIC run eight lanes at a time; the rest use the
    /// reference scalar path.
    public static func apply(_ function: UnaryFunction, input: UnsafePointer<Float>,
                             output: UnsafeMutablePointer<Float>, count: Int) {
        switch function {
        case .relu: clamp(input, output, count, 0, .infinity)
        case .relu6: clamp(input, output, count, 0, 6)
        case .reluN1To1: clamp(input, output, count, -1, 1)
        case .relu0To1: clamp(input, output, count, 0, 1)
        case .leakyRelu(let alpha):
            let a = SIMD8<Float>(repeating: alpha)
            vectorized(input, output, count, { function($0) }) { x in x.replacing(with: x * a, where: x .<= 0) }
        case .hardSwish:
            let three = SIMD8<Float>(repeating: 3), six = SIMD8<Float>(repeating: 6)
            vectorized(input, output, count, { function($0) }) { x in
                x * clampLanes(x + three, 0, 6) / six
            }
        case .logistic:
            let one = SIMD8<Float>(repeating: 1)
            vectorized(input, output, count, { function($0) }) { x in one / (one + VectorMath.exp(-x)) }
        default:
            reference(function, input: input, output: output, count: count)
        }
    }

    @inline(__always)
    static func clamp(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ count: Int,
                      _ lo: Float, _ hi: Float) {
        vectorized(input, output, count, { Swift.min(Swift.max($0, lo), hi) }) { clampLanes($0, lo, hi) }
    }

    /// Runs `body` over full vectors of eight and `scalar` on the tail.
    @inline(__always)
    static func vectorized(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ count: Int,
                           _ scalar: (Float) -> Float, _ body: (SIMD8<Float>) -> SIMD8<Float>) {
        let src = UnsafeRawPointer(input), dst = UnsafeMutableRawPointer(output)
        var i = 0
        while i + 8 <= count {
            let v = src.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            dst.storeBytes(of: body(v), toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count {
            output[i] = scalar(input[i])
            i += 1
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension UnaryFunction {
    /// The function applied to one value: the reference definition every path must match.
    @inline(__always)
    public func callAsFunction(_ x: Float) -> Float {
        switch self {
        case .relu: return Swift.max(0, x)
        case .relu6: return Swift.min(Swift.max(0, x), 6)
        case .reluN1To1: return Swift.min(Swift.max(-1, x), 1)
        case .relu0To1: return Swift.min(Swift.max(0, x), 1)
        case .leakyRelu(let alpha): return x > 0 ? x : alpha * x
        case .logistic: return 1 / (1 + expf(-x))
        case .tanh: return tanhf(x)
        case .hardSwish: return x * Swift.min(Swift.max(x + 3, 0), 6) / 6
        case .elu: return x < 0 ? expm1f(x) : x
        case .gelu(let approximate):
            if approximate {
                // sqrt(2 / pi) * (x + 0.044715 x^3)
                let inner: Float = 0.7978845608028654 * (x + 0.044715 * x * x * x)
                return 0.5 * x * (1 + tanhf(inner))
            }
            return 0.5 * x * erfcf(-x * 0.7071067811865476)
        case .exp: return expf(x)
        case .log: return logf(x)
        case .sqrt: return x.squareRoot()
        case .rsqrt: return 1 / x.squareRoot()
        case .abs: return Swift.abs(x)
        case .negate: return -x
        case .sin: return sinf(x)
        case .cos: return cosf(x)
        case .square: return x * x
        case .floor: return x.rounded(.down)
        case .ceil: return x.rounded(.up)
        case .round: return x.rounded(.toNearestOrEven)
        case .sign: return x > 0 ? 1 : (x < 0 ? -1 : 0)
        }
    }
}

extension Activations {
    /// The reference path: the scalar definition applied to `count` values (`output` may alias
    /// `input`).
    public static func reference(_ function: UnaryFunction, input: UnsafePointer<Float>,
                                 output: UnsafeMutablePointer<Float>, count: Int) {
        switch function {
        // One loop per case so the switch is not evaluated per element.
        case .relu: for i in 0..<count { output[i] = UnaryFunction.relu(input[i]) }
        case .logistic: for i in 0..<count { output[i] = UnaryFunction.logistic(input[i]) }
        default: for i in 0..<count { output[i] = function(input[i]) }
        }
    }
}

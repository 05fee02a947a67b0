#if TFLITE_ISA_MODULE
import Kernels
#endif
/// The float activations with a vector path: the RELU family, LEAKY_RELU, HARD_SWISH and
/// LOGISTIC, a ``WideFloats`` at a time. Each lane computes what every other copy computes, so
/// the results do not depend on the variant.
enum FloatActivations {
    /// Whether `function` has a vector path here.
    static func handles(_ function: UnaryFunction) -> Bool {
        switch function {
        case .relu, .relu6, .reluN1To1, .relu0To1, .leakyRelu, .hardSwish, .logistic: return true
        default: return false
        }
    }

    /// Applies `function` to `count` values (`output` may alias `input`), split across
    /// `threads` when there are enough of them; the functions without a vector path run the
    /// reference.
    static func apply(_ function: UnaryFunction, input: UnsafePointer<Float>,
                      output: UnsafeMutablePointer<Float>, count: Int, threads: ThreadPool?) {
        // Split in whole vectors; the last range takes the tail.
        let width = WideFloats.scalarCount
        let vectors = (count + width - 1) / width
        ThreadPool.split(threads, count: vectors, work: count * ThreadPool.workPerElement) { range in
            let start = range.lowerBound * width
            apply(function, input: input + start, output: output + start,
                  count: Swift.min(count, range.upperBound * width) - start)
        }
    }

    /// One thread's share of ``apply(_:input:output:count:threads:)``. Kept out of line: inlined
    /// into the splitting closure, the clamps of the RELU family compiled to a lane-by-lane loop.
    @inline(never)
    static func apply(_ function: UnaryFunction, input: UnsafePointer<Float>,
                      output: UnsafeMutablePointer<Float>, count: Int) {
        switch function {
        case .relu: vectorized(input, output, count, Bounds(lo: 0, hi: .infinity))
        case .relu6: vectorized(input, output, count, Bounds(lo: 0, hi: 6))
        case .reluN1To1: vectorized(input, output, count, Bounds(lo: -1, hi: 1))
        case .relu0To1: vectorized(input, output, count, Bounds(lo: 0, hi: 1))
        case .leakyRelu(let alpha): vectorized(input, output, count, Leaky(alpha: alpha))
        case .hardSwish: vectorized(input, output, count, HardSwish())
        case .logistic:
            logistic(input, output, count)
        default:
            Activations.reference(function, input: input, output: output, count: count)
        }
    }

    /// LOGISTIC, `1 / (1 + exp(-x))`, two vectors per step. Written as its own loop: passed
    /// to ``vectorized(_:_:_:_:_:)`` as a closure, the exponential's polynomial stayed a call
    /// per vector, and one dependent chain at a time left the divider idle.
    ///
    /// Inputs below -87 are raised to -87, so the result stays a normal float (about 1.6e-38,
    /// where the exact value is smaller still): a division giving a subnormal takes a microcode
    /// assist, which a segmentation mask's confident background would need at most pixels.
    static func logistic(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ count: Int) {
        let src = UnsafeRawPointer(input), dst = UnsafeMutableRawPointer(output)
        let width = WideFloats.scalarCount, bytes = width * 4
        var i = 0
        while i + 2 * width <= count {
            let a = src.loadUnaligned(fromByteOffset: i * 4, as: WideFloats.self)
            let b = src.loadUnaligned(fromByteOffset: i * 4 + bytes, as: WideFloats.self)
            dst.storeBytes(of: sigmoid(a), toByteOffset: i * 4, as: WideFloats.self)
            dst.storeBytes(of: sigmoid(b), toByteOffset: i * 4 + bytes, as: WideFloats.self)
            i += 2 * width
        }
        if i + width <= count {
            dst.storeBytes(of: sigmoid(src.loadUnaligned(fromByteOffset: i * 4, as: WideFloats.self)),
                           toByteOffset: i * 4, as: WideFloats.self)
            i += width
        }
        // The tensor's last count % width values (ranges split across threads are whole
        // vectors) through the same vector formula, so no value depends on the vector width.
        if i < count {
            var rest = WideFloats(repeating: 0)
            for j in 0..<(count - i) { rest[j] = input[i + j] }
            let results = sigmoid(rest)
            for j in 0..<(count - i) { output[i + j] = results[j] }
        }
    }

    // Transparent, as the exponential inside: merely always-inline, the sixteen-lane body was
    // left out of line and split into four xmm quarters.
    @_transparent
    private static func sigmoid(_ x: WideFloats) -> WideFloats {
        let one = WideFloats(repeating: 1)
        return one / (one + VectorMath.exp(-VectorMath.clamp(x, -87, .infinity)))
    }

    /// Runs `function` over full vectors, then one value at a time on the tail.
    @inline(__always)
    private static func vectorized<Function: LaneFunction>(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>,
                                                           _ count: Int, _ function: Function) {
        let src = UnsafeRawPointer(input), dst = UnsafeMutableRawPointer(output)
        var i = 0
        while i + WideFloats.scalarCount <= count {
            let v = src.loadUnaligned(fromByteOffset: i * 4, as: WideFloats.self)
            dst.storeBytes(of: function.lanes(v), toByteOffset: i * 4, as: WideFloats.self)
            i += WideFloats.scalarCount
        }
        while i < count {
            output[i] = function.value(input[i])
            i += 1
        }
    }
}

/// LEAKY_RELU, `x > 0 ? x : alpha * x`.
private struct Leaky: LaneFunction {
    let alpha: Float
    @_transparent func lanes(_ x: WideFloats) -> WideFloats {
        x.replacing(with: WideFloats(repeating: alpha) * x, where: .!(x .> 0))
    }
    @_transparent func value(_ x: Float) -> Float { x > 0 ? x : alpha * x }
}

/// HARD_SWISH, `x * min(max(x + 3, 0), 6) / 6`.
private struct HardSwish: LaneFunction {
    @_transparent func lanes(_ x: WideFloats) -> WideFloats {
        x * VectorMath.clamp(x + WideFloats(repeating: 3), 0, 6) / WideFloats(repeating: 6)
    }
    @_transparent func value(_ x: Float) -> Float { x * Swift.min(Swift.max(x + 3, 0), 6) / 6 }
}

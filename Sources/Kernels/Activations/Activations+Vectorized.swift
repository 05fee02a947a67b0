extension Activations {
    /// Applies `function` to `count` values (`output` may alias `input`), split across
    /// `threads` when there are enough of them. The RELU family, LEAKY_RELU, HARD_SWISH and
    /// LOGISTIC run eight lanes at a time; the rest use the reference scalar path.
    public static func apply(_ function: UnaryFunction, input: UnsafePointer<Float>,
                             output: UnsafeMutablePointer<Float>, count: Int, threads: ThreadPool? = nil) {
        // Split in whole vectors; the last range takes the tail.
        let vectors = (count + 7) / 8
        ThreadPool.split(threads, count: vectors, work: count * ThreadPool.workPerElement) { range in
            let start = range.lowerBound * 8
            apply(function, input: input + start, output: output + start,
                  count: Swift.min(count, range.upperBound * 8) - start)
        }
    }

    /// One thread's share of ``apply(_:input:output:count:threads:)``. Kept out of line: inlined
    /// into the splitting closure, the clamps of the RELU family compile to a lane-by-lane loop.
    @inline(never)
    static func apply(_ function: UnaryFunction, input: UnsafePointer<Float>,
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
            logistic(input, output, count)
        default:
            reference(function, input: input, output: output, count: count)
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
        let one = SIMD8<Float>(repeating: 1)
        @inline(__always) func sigmoid(_ x: SIMD8<Float>) -> SIMD8<Float> {
            one / (one + VectorMath.exp(-clampLanes(x, -87, .infinity)))
        }
        var i = 0
        while i + 16 <= count {
            let a = src.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
            let b = src.loadUnaligned(fromByteOffset: i * 4 + 32, as: SIMD8<Float>.self)
            dst.storeBytes(of: sigmoid(a), toByteOffset: i * 4, as: SIMD8<Float>.self)
            dst.storeBytes(of: sigmoid(b), toByteOffset: i * 4 + 32, as: SIMD8<Float>.self)
            i += 16
        }
        if i + 8 <= count {
            dst.storeBytes(of: sigmoid(src.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)),
                           toByteOffset: i * 4, as: SIMD8<Float>.self)
            i += 8
        }
        // Only the tensor's last count % 8 values: ranges split across threads are whole vectors.
        let scalar = UnaryFunction.logistic
        while i < count {
            output[i] = scalar(input[i])
            i += 1
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

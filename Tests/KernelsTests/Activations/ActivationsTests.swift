import TestSupport
import Testing
import Foundation
import Kernels

/// Each function's definition, written with Foundation's double-precision math.
func activationFormula(_ f: UnaryFunction) -> (Double) -> Double {
    switch f {
    case .relu: return { max(0, $0) }
    case .relu6: return { min(max(0, $0), 6) }
    case .reluN1To1: return { min(max(-1, $0), 1) }
    case .relu0To1: return { min(max(0, $0), 1) }
    case .leakyRelu(let a): return { $0 > 0 ? $0 : Double(a) * $0 }
    case .logistic: return { 1 / (1 + Foundation.exp(-$0)) }
    case .tanh: return { Foundation.tanh($0) }
    case .hardSwish: return { $0 * min(max($0 + 3, 0), 6) / 6 }
    case .elu: return { $0 < 0 ? Foundation.exp($0) - 1 : $0 }
    case .gelu(let approximate):
        if approximate { return { 0.5 * $0 * (1 + Foundation.tanh((2 / Double.pi).squareRoot() * ($0 + 0.044715 * $0 * $0 * $0))) } }
        return { 0.5 * $0 * (1 + Foundation.erf($0 / 2.0.squareRoot())) }
    case .exp: return { Foundation.exp($0) }
    case .log: return { Foundation.log($0) }
    case .sqrt: return { $0.squareRoot() }
    case .rsqrt: return { 1 / $0.squareRoot() }
    case .abs: return { Swift.abs($0) }
    case .negate: return { -$0 }
    case .sin: return { Foundation.sin($0) }
    case .cos: return { Foundation.cos($0) }
    case .square: return { $0 * $0 }
    case .floor: return { Foundation.floor($0) }
    case .ceil: return { Foundation.ceil($0) }
    case .round: return { $0.rounded(.toNearestOrEven) }
    case .sign: return { $0 > 0 ? 1 : ($0 < 0 ? -1 : 0) }
    }
}

let allUnaryFunctions: [UnaryFunction] = [
    .relu, .relu6, .reluN1To1, .relu0To1, .leakyRelu(alpha: 0.2), .logistic, .tanh, .hardSwish, .elu,
    .gelu(approximate: true), .gelu(approximate: false), .exp, .log, .sqrt, .rsqrt, .abs, .negate, .sin, .cos,
    .square, .floor, .ceil, .round, .sign,
]

@Suite struct ActivationsTests {
    /// Both paths against the double-precision formula on odd lengths (vector body + tail),
    /// including an empty input.
    @Test(arguments: allUnaryFunctions)
    func pathsMatchFormula(function: UnaryFunction) {
        var rng = SplitMix64(seed: 21)
        let positiveOnly: Bool
        switch function { case .log, .sqrt, .rsqrt: positiveOnly = true; default: positiveOnly = false }
        for count in [0, 1, 7, 8, 9, 37, 200] {
            var values = rng.floats(count, in: positiveOnly ? 0.01...20 : -12...12)
            if function == .round, count > 4 { values[0] = 2.5; values[1] = -0.5; values[2] = 3.5; values[3] = -1.5 }
            let input = TestBuffer(values)
            let ref = TestBuffer(repeating: Float.nan, count: count), fast = TestBuffer(repeating: Float.nan, count: count)
            Activations.reference(function, input: input.constant, output: ref.pointer, count: count)
            Activations.apply(function, input: input.constant, output: fast.pointer, count: count)
            let formula = activationFormula(function)
            for i in 0..<count {
                let want = formula(Double(values[i]))
                let tol = 4e-6 * max(1, Swift.abs(want))
                #expect(Swift.abs(Double(ref.array[i]) - want) <= tol, "\(function) ref x=\(values[i])")
                #expect(Swift.abs(Double(fast.array[i]) - want) <= tol, "\(function) fast x=\(values[i])")
            }
        }
    }

    /// Split across three threads (whole vectors per thread, the tail on the last), the
    /// vector paths give exactly what one thread gives.
    @Test(arguments: [UnaryFunction.relu6, .logistic, .hardSwish, .leakyRelu(alpha: 0.1), .tanh])
    func threadedMatchesSingleThread(function: UnaryFunction) {
        var rng = SplitMix64(seed: 22)
        let count = 100_003
        let input = TestBuffer(rng.floats(count, in: -12...12))
        let one = TestBuffer(repeating: Float.nan, count: count), three = TestBuffer(repeating: Float.nan, count: count)
        Activations.apply(function, input: input.constant, output: one.pointer, count: count)
        Activations.apply(function, input: input.constant, output: three.pointer, count: count, threads: ThreadPool(threadCount: 3))
        #expect(one.array == three.array)
    }

    @Test func roundTiesToEven() {
        let input = TestBuffer<Float>([0.5, 1.5, 2.5, -0.5, -2.5, 2.4, -2.6])
        let out = TestBuffer(repeating: Float.nan, count: 7)
        Activations.apply(.round, input: input.constant, output: out.pointer, count: 7)
        #expect(out.array == [0, 2, 2, -0, -2, 2, -3])
    }

    /// The vector exponential saturates instead of overflowing, so LOGISTIC is exactly 1 or
    /// below 1e-30 far from the origin, never NaN and never subnormal.
    @Test func logisticSaturates() {
        let input = TestBuffer<Float>([-1000, -100, 100, 1000, 0, -.infinity, .infinity, 50])
        let out = TestBuffer(repeating: Float.nan, count: 8)
        Activations.apply(.logistic, input: input.constant, output: out.pointer, count: 8)
        let v = out.array
        #expect(v[0] < 1e-30 && v[1] < 1e-30 && v[5] < 1e-30)
        // Never subnormal: producing one costs a microcode assist per vector.
        #expect(v.allSatisfy { $0 == 0 || $0.isNormal })
        #expect(v[2] == 1 && v[3] == 1 && v[6] == 1 && v[7] == 1)
        #expect(v[4] == 0.5)
    }

    @Test func preluBroadcastsAlphaPerChannel() {
        let plan = BroadcastPlan(lhsShape: [2, 3], rhsShape: [3])!
        let x = TestBuffer<Float>([-1, 2, -3, 4, -5, 0]), alpha = TestBuffer<Float>([0.5, 0.25, 2])
        let out = TestBuffer(repeating: Float.nan, count: 6)
        Activations.prelu(input: x.constant, alpha: alpha.constant, plan: plan, output: out.pointer)
        let want: [Float] = [-1 * 0.5, 2, -3 * 2, 4, -5 * 0.25, 0]
        #expect(out.array == want)
    }

    @Test(arguments: IntegerUnaryFunction.allCases)
    func integerUnaryMatchesFormulas(function: IntegerUnaryFunction) {
        let values: [Int32] = [0, 1, -1, 7, -42, Int32.max, Int32.min, 46340]
        let input = TestBuffer(values), out = TestBuffer(repeating: Int32(0), count: values.count)
        Activations.apply(function, input: input.constant, output: out.pointer, count: values.count)
        let want = values.map { (x: Int32) -> Int32 in
            let w = Int64(x)
            switch function {
            case .abs: return Int32(truncatingIfNeeded: Swift.abs(w))
            case .negate: return Int32(truncatingIfNeeded: -w)
            case .square: return Int32(truncatingIfNeeded: w * w)
            case .sign: return Int32(w.signum())
            }
        }
        #expect(out.array == want)
    }
}

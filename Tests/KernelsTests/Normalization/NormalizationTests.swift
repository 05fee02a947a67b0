import TestSupport
import Testing
import Foundation
import Kernels

@Suite struct NormalizationTests {
    @Test func l2NormalizationGivesUnitRows() {
        var rng = SplitMix64(seed: 131)
        let rows = 4, depth = 13
        let x = rng.floats(rows * depth, in: -3...3) + [Float](repeating: 0, count: depth)
        let input = TestBuffer(x), out = TestBuffer(repeating: Float.nan, count: x.count)
        L2Normalization.apply(input: input.constant, rows: rows + 1, depth: depth, output: out.pointer)
        for r in 0..<rows {
            let row = x[(r * depth)..<((r + 1) * depth)].map(Double.init)
            let norm = row.map { $0 * $0 }.reduce(0, +).squareRoot()
            for i in 0..<depth { #expect(Swift.abs(Double(out.array[r * depth + i]) - row[i] / norm) <= 1e-6) }
        }
        // An all-zero row divides by epsilon instead of producing NaN.
        #expect(out.array[(rows * depth)...].allSatisfy { $0 == 0 })
    }

    @Test(arguments: [0, 1, 2, 5])
    func lrnMatchesWindowFormula(radius: Int) {
        var rng = SplitMix64(seed: 141)
        let rows = 3, depth = 7
        let params = LocalResponseNormalizationParams(radius: radius, bias: 1.5, alpha: 0.3, beta: 0.75)
        let x = rng.floats(rows * depth, in: -2...2)
        let input = TestBuffer(x), out = TestBuffer(repeating: Float.nan, count: x.count)
        LocalResponseNormalization.apply(params: params, input: input.constant, rows: rows, depth: depth, output: out.pointer)
        for r in 0..<rows { for c in 0..<depth {
            var sum = 0.0
            for k in max(0, c - radius)...min(depth - 1, c + radius) { sum += Double(x[r * depth + k] * x[r * depth + k]) }
            let want = Double(x[r * depth + c]) * Foundation.pow(1.5 + 0.3 * sum, -0.75)
            #expect(Swift.abs(Double(out.array[r * depth + c]) - want) <= 1e-5)
        } }
    }
}

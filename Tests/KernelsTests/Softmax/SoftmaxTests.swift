import TestSupport
import Testing
import Foundation
import Kernels

@Suite struct SoftmaxTests {
    @Test(arguments: [Float(1), 0.5, 2])
    func softmaxMatchesFormula(beta: Float) {
        var rng = SplitMix64(seed: 31)
        for depth in [1, 2, 5, 17, 100] {
            let rows = 3
            let x = rng.floats(rows * depth, in: -30...30)
            let input = TestBuffer(x), out = TestBuffer(repeating: Float.nan, count: x.count)
            let logOut = TestBuffer(repeating: Float.nan, count: x.count)
            Softmax.softmax(input: input.constant, rows: rows, depth: depth, beta: beta, output: out.pointer)
            Softmax.logSoftmax(input: input.constant, rows: rows, depth: depth, output: logOut.pointer)
            for r in 0..<rows {
                let row = x[(r * depth)..<((r + 1) * depth)].map(Double.init)
                let denom = row.map { Foundation.exp(Double(beta) * $0) }.reduce(0, +)
                let logDenom = Foundation.log(row.map { Foundation.exp($0) }.reduce(0, +))
                for i in 0..<depth {
                    let want = Foundation.exp(Double(beta) * row[i]) / denom
                    #expect(Swift.abs(Double(out.array[r * depth + i]) - want) <= 1e-6 + 1e-5 * want)
                    #expect(Swift.abs(Double(logOut.array[r * depth + i]) - (row[i] - logDenom)) <= 1e-4)
                }
            }
        }
    }

    @Test func largeInputsDoNotOverflow() {
        let input = TestBuffer<Float>([1000, 1000, -1000]), out = TestBuffer(repeating: Float.nan, count: 3)
        Softmax.softmax(input: input.constant, rows: 1, depth: 3, beta: 1, output: out.pointer)
        #expect(out.array == [0.5, 0.5, 0])
    }
}

import TestSupport
import Testing
@testable import Kernels

/// The column-sum kernels of SUM and MEAN (the input as `[outer, rows, inner]`) on every
/// variant: int8 MEAN (`int8Mean`) against the reference `meanOrSum` and against LiteRT on
/// mobilenet_v2_int8's global average, float SUM and MEAN (`floatSumOrMean`) against
/// `Reduce.apply` bit for bit; and which shapes the plans give them.
@Suite struct MeanRowsTests {
    @Test(arguments: hostVariants)
    func matchesTheReference(variant: InstructionSet) {
        var rng = SplitMix64(seed: 71)
        var vectorised = 0
        // Whole blocks of four vectors, single vectors and tails, one row to many.
        for (trial, inner) in [2, 15, 16, 17, 63, 64, 65, 100, 129, 1280].enumerated() {
            for rows in [1, 3, 49, 300] {
                let outer = Int.random(in: 1...3, using: &rng)
                let inputQ = AffineQuantization(scale: Float.random(in: 0.01...0.1, using: &rng), zeroPoint: Int32.random(in: -128...127, using: &rng))
                // Output scales near the input's, so that most means land inside int8.
                let outputQ = AffineQuantization(scale: inputQ.scale * Float.random(in: 0.3...1.5, using: &rng),
                                                 zeroPoint: Int32.random(in: -128...127, using: &rng))
                let params = QuantizedMeanSumParams(input: inputQ, output: outputQ)
                let shape = [outer, rows, inner]
                // Each column around a level of its own, so that the means spread over the
                // output's range (means of uniform noise all come out near one value).
                let levels = (0..<inner).map { _ in Int.random(in: -110...110, using: &rng) }
                let input = (0..<(outer * rows * inner)).map { i in
                    Int8(clamping: levels[i % inner] + Int.random(in: -20...20, using: &rng))
                }
                var reference = [Int8](repeating: 0, count: outer * inner), optimised = reference
                var sums = [Int32](repeating: 0, count: outer * inner)
                guard let kernel = kernels(variant).int8Mean(params, outer, rows, inner) else {
                    Issue.record("\(variant): no kernel for \(shape)")
                    continue
                }
                input.withUnsafeBufferPointer { x in
                    reference.withUnsafeMutableBufferPointer { y in
                        sums.withUnsafeMutableBufferPointer { s in
                            Reduce.Quantized.meanOrSum(params, computeSum: false, input: x.baseAddress!, inputShape: shape,
                                                       reduced: [false, true, false], output: y.baseAddress!, outputCount: outer * inner,
                                                       sums: s.baseAddress!)
                        }
                    }
                    optimised.withUnsafeMutableBufferPointer {
                        kernel(UnaryOperands(input: x.baseAddress!, output: $0.baseAddress!), ThreadPool(threadCount: 1))
                    }
                }
                #expect(optimised == reference, "\(variant) trial \(trial): \(shape)")
                if reference.count >= 64 { #expect(Set(reference).count > 8, "\(shape): the means should not all saturate") }
                vectorised += 1
            }
        }
        #expect(vectorised == 40)
    }

    /// mobilenet_v2_int8's MEAN ([1, 7, 7, 1280] over the two spatial axes) as LiteRT computed it.
    @Test(arguments: hostVariants)
    func matchesLiteRTOnMobileNet(variant: InstructionSet) throws {
        let f = try #require(QuantizedOpFixture.all(in: ["mobilenet_v2_int8"]).first { $0.op == "MEAN" })
        let input = f.inputs[0]!, output = f.outputs[0]
        #expect(input.shape == [1, 7, 7, 1280])
        let params = QuantizedMeanSumParams(input: input.quantization, output: output.quantization)
        let kernel = try #require(kernels(variant).int8Mean(params, 1, 49, 1280))
        var actual = [Int8](repeating: 0, count: 1280)
        input.values(Int8.self).withUnsafeBufferPointer { x in
            actual.withUnsafeMutableBufferPointer { kernel(UnaryOperands(input: x.baseAddress!, output: $0.baseAddress!), ThreadPool(threadCount: 1)) }
        }
        #expect(actual.map(Int64.init) == output.values(Int64.self))
    }

    @Test(arguments: hostVariants, [false, true])
    func floatMatchesTheReferenceBitForBit(variant: InstructionSet, divides: Bool) {
        var rng = SplitMix64(seed: 72)
        for inner in [2, 7, 8, 15, 16, 17, 64, 65, 100, 1280] {
            for rows in [1, 3, 49] {
                let outer = Int.random(in: 1...3, using: &rng)
                let shape = [outer, rows, inner]
                let input = (0..<(outer * rows * inner)).map { _ in Float.random(in: -4...4, using: &rng) }
                let plan = ReducePlan(inputShape: shape, axes: [1])!
                var reference = [Float](repeating: 0, count: outer * inner), optimised = reference
                let kernel = kernels(variant).floatSumOrMean(divides, outer, rows, inner)
                input.withUnsafeBufferPointer { x in
                    reference.withUnsafeMutableBufferPointer {
                        Reduce.apply(divides ? .mean : .sum, input: x.baseAddress!, plan: plan, output: $0.baseAddress!)
                    }
                    optimised.withUnsafeMutableBufferPointer {
                        kernel(UnaryOperands(input: x.baseAddress!, output: $0.baseAddress!), ThreadPool(threadCount: 1))
                    }
                }
                #expect(optimised.map(\.bitPattern) == reference.map(\.bitPattern), "\(variant) \(shape)")
            }
        }
    }

    /// The `[outer, rows, inner]` view: adjacent reduced axes with a kept extent after them;
    /// axes of extent 1 count as neither.
    @Test func adjacentReductions() {
        let view = Reduce.adjacentReduction
        #expect(view([1, 7, 7, 1280], [false, true, true, false])! == (1, 49, 1280))
        #expect(view([2, 3, 4], [true, false, false])! == (1, 2, 12))
        #expect(view([2, 3, 4], [false, true, false])! == (2, 3, 4))
        #expect(view([2, 1, 3, 4], [false, false, true, false])! == (2, 3, 4))
        #expect(view([2, 3, 1, 4], [false, true, false, true]) == nil)
        #expect(view([2, 3, 4], [true, false, true]) == nil)
        #expect(view([2, 3, 4], [false, false, true]) == nil)
        #expect(view([2, 3, 4], [false, true, true]) == nil)
        #expect(view([5, 3, 1], [false, true, false]) == nil)
    }
}

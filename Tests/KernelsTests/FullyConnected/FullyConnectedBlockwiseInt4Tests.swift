import Kernels
import Testing
import TestSupport

/// The blockwise int4 FULLY_CONNECTED of every variant this host runs against the reference
/// loop (whose agreement with LiteRT the op-zoo and transformer cases check), and the nibble
/// order LiteRT packs int4 values in.
@Suite struct FullyConnectedBlockwiseInt4Tests {
    /// LiteRT's `SignExtendInt4` reads the even-indexed value from the low nibble.
    @Test func nibblesUnpackLowFirstAndSignExtend() {
        let packed: [UInt8] = [0x8F, 0x70, 0x1E]
        let expected: [Int8] = [-1, -8, 0, 7, -2, 1]
        packed.withUnsafeBufferPointer { p in
            #expect((0..<6).map { PackedInt4.value(p.baseAddress!, at: $0) } == expected)
            var out = [Int8](repeating: 0, count: 5)
            out.withUnsafeMutableBufferPointer { PackedInt4.unpack(p.baseAddress!, from: 0, count: 5, into: $0.baseAddress!) }
            #expect(out == Array(expected.prefix(5)))
        }
    }

    struct Problem: CustomTestStringConvertible, Sendable {
        let batches, rows, columns, blockSize: Int
        var testDescription: String { "\(batches)x\(columns) -> \(rows), blocks of \(blockSize)" }
    }

    static let problems = [Problem(batches: 1, rows: 37, columns: 256, blockSize: 32),
                           Problem(batches: 3, rows: 64, columns: 192, blockSize: 64),
                           Problem(batches: 2, rows: 9, columns: 96, blockSize: 48)]

    @Test(arguments: hostVariants, problems)
    func optimizedMatchesReference(_ variant: InstructionSet, _ p: Problem) {
        var rng = SplitMix64(seed: UInt64(p.rows * 31 + p.columns))
        let packed = (0..<(p.rows * p.columns / 2)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        // Scales as float16 bit patterns of values in [2^-7, 2^-5).
        let scales = (0..<(p.rows * p.columns / p.blockSize)).map { _ in UInt16(0x2000 + Int.random(in: 0..<0x800, using: &rng)) }
        var input = (0..<(p.batches * p.columns)).map { _ in Float.random(in: -3...3, using: &rng) }
        input.replaceSubrange(0..<p.columns, with: repeatElement(0, count: p.columns))  // an all-zero row
        let bias = (0..<p.rows).map { _ in Float.random(in: -1...1, using: &rng) }
        let activation = ActivationRange<Float>(min: -.infinity, max: .infinity)
        let pool = ThreadPool(threadCount: 2)
        var reference = [Float](repeating: .nan, count: p.batches * p.rows), optimized = reference
        packed.withUnsafeBufferPointer { w in
            scales.withUnsafeBufferPointer { s in
                let weights = BlockwiseInt4Weights(packed: w.baseAddress!, rows: p.rows, columns: p.columns,
                                                   blockSize: p.blockSize, halfScales: s.baseAddress!)
                let kernel = kernels(variant).blockwiseInt4FullyConnected(weights, p.batches, activation)
                var scratch = [Int8](repeating: 0, count: max(kernel.scratchBytes, 1))
                input.withUnsafeBufferPointer { x in
                    bias.withUnsafeBufferPointer { b in
                        scratch.withUnsafeMutableBufferPointer { sc in
                            reference.withUnsafeMutableBufferPointer { y in
                                FullyConnected.BlockwiseInt4.reference(weights: weights, input: x.baseAddress!, batches: p.batches,
                                                                      bias: b.baseAddress, activation: activation,
                                                                      output: y.baseAddress!, scratch: sc.baseAddress!)
                            }
                            optimized.withUnsafeMutableBufferPointer { y in
                                kernel.run(input: x.baseAddress!, bias: b.baseAddress, output: y.baseAddress!,
                                           scratch: sc.baseAddress!, pool: pool)
                            }
                        }
                    }
                }
            }
        }
        // The optimised kernel sums the scaled blocks in float lanes, the reference block by
        // block: equal up to float rounding of sums of a few dozen terms.
        let scale = reference.map(abs).max() ?? 1
        for (k, (a, r)) in zip(optimized, reference).enumerated() {
            #expect(abs(a - r) <= 1e-5 * scale, "\(variant) output \(k): \(a), reference \(r)")
        }
        #expect(Array(optimized[0..<p.rows]) == Array(reference[0..<p.rows]), "the zero row is the bias alone")
    }
}

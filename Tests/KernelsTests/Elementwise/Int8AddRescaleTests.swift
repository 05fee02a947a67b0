import Testing
@testable import Kernels
import TestSupport

/// The int8 ADD kernel's 32-bit input rescale (`Int8AddKernel.InputRescale`, the copy compiled
/// into `Kernels`; the variants compile the same source) against TFLite's 64-bit high multiply
/// and rounding shift, on every input value. Through the whole ADD a rescale one unit off
/// rarely shows: the output's rescale divides it away.
struct Int8AddRescaleTests {
    @Test func rescaleMatchesTheReferenceOnEveryValue() {
        var rng = SplitMix64(seed: 211)
        let values = (0..<256).map { Int8(truncatingIfNeeded: $0) }
        var checked = 0
        for trial in 0..<400 {
            // Right shifts 0 to 12: input scales up to 2^12 times apart.
            let real = Double.random(in: 0.5...1, using: &rng) / Double(1 << (trial % 13)) * 0.999_999
            let multiplier = QuantizedMultiplier(real)
            let offset = Int32.random(in: -127...128, using: &rng)
            let params = QuantizedAddParams(input1Offset: offset, input2Offset: 0, outputOffset: 0, leftShift: 20,
                                            input1Multiplier: multiplier, input2Multiplier: multiplier,
                                            outputMultiplier: multiplier, activation: ActivationRange(min: -128, max: 127))
            guard let rescale = Int8AddKernel.InputRescale(offset: offset, multiplier: multiplier, leftShift: 20) else {
                Issue.record("trial \(trial): \(multiplier) has no 32-bit rescale")
                continue
            }
            values.withUnsafeBufferPointer { x in
                for start in stride(from: 0, to: 256, by: int8LaneCount) {
                    let lanes = rescale(x.baseAddress! + start)
                    for j in 0..<int8LaneCount {
                        let expected = params.rescaled(Int32(x[start + j]), offset: offset, multiplier)
                        #expect(lanes[j] == expected, "trial \(trial): x = \(x[start + j]), offset \(offset), \(multiplier)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 400 * 256)
    }

    /// The whole optimised ADD of every variant, on one thread and split across pools of two
    /// and three (sizes past the split threshold, with a partial last vector), against the
    /// reference kernel, exactly.
    @Test(arguments: hostVariants)
    func splitAddsMatchTheReference(variant: InstructionSet) {
        var rng = SplitMix64(seed: 223)
        for count in [int8LaneCount * 300 + 5, 4_704, 97] {
            let a = (0..<count).map { _ in Int8.random(in: -128...127, using: &rng) }
            let b = (0..<count).map { _ in Int8.random(in: -128...127, using: &rng) }
            let params = QuantizedAddParams.make(input1: AffineQuantization(scale: 0.05, zeroPoint: 3),
                                                 input2: AffineQuantization(scale: 0.031, zeroPoint: -7),
                                                 output: AffineQuantization(scale: 0.07, zeroPoint: -2),
                                                 activation: .relu, qmin: -128, qmax: 127)!
            let shape = [1, count]
            func run(_ choice: KernelChoice, threads: Int) -> (name: String, values: [Int8]) {
                let kernel = Elementwise.Quantized.planAdd(params, aShape: shape, bShape: shape, outputShape: shape, using: choice)
                let out = TestBuffer<Int8>(repeating: 0, count: count)
                a.withUnsafeBufferPointer { x in
                    b.withUnsafeBufferPointer { y in
                        kernel.run(BinaryOperands(a: x.baseAddress!, b: y.baseAddress!, output: out.pointer),
                                   ThreadPool(threadCount: threads))
                    }
                }
                return (kernel.name, out.array)
            }
            let want = run(.referenceOnly, threads: 1).values
            for threads in [1, 2, 3] {
                let got = run(.optimized(kernels(variant)), threads: threads)
                #expect(got.name.hasPrefix("add.i8.lanes"), "\(got.name)")
                let wrong = zip(got.values, want).filter { $0.0 != $0.1 }.count
                #expect(wrong == 0, "\(variant): \(wrong) of \(count) elements wrong on \(threads) thread(s)")
            }
        }
    }

    /// A right shift above 12 (input scales more than 2^12 apart) has no exact 32-bit form.
    @Test func aShiftAboveTwelveHasNoRescale() {
        #expect(Int8AddKernel.InputRescale(offset: 0, multiplier: QuantizedMultiplier(0.7 / 8192), leftShift: 20) == nil)
        #expect(Int8AddKernel.InputRescale(offset: 0, multiplier: QuantizedMultiplier(0.7 / 4096), leftShift: 20) != nil)
    }
}

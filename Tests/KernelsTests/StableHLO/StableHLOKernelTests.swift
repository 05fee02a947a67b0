import TestSupport
import Testing
import Kernels

@Suite struct StableHLOKernelTests {
    /// The known-answer vectors published with the Random123 reference implementation.
    @Test func generatorsMatchTheirKnownAnswers() {
        let m = UInt32.max
        #expect(RngBitGenerator.threefry2x32(key: (0, 0), counter: (0, 0)) == (0x6B20_0159, 0x99BA_4EFE))
        #expect(RngBitGenerator.threefry2x32(key: (m, m), counter: (m, m)) == (0x1CB9_96FC, 0xBB00_2BE7))
        #expect(RngBitGenerator.threefry2x32(key: (0x1319_8A2E, 0x0370_7344), counter: (0x243F_6A88, 0x85A3_08D3)) == (0xC492_3A9C, 0x483D_F7A0))
        #expect(RngBitGenerator.philox4x32(key: (0, 0), counter: (0, 0, 0, 0)) == (0x6627_E8D5, 0xE169_C58D, 0xBC57_AC4C, 0x9B00_DBD8))
        #expect(RngBitGenerator.philox4x32(key: (m, m), counter: (m, m, m, m)) == (0x408F_276D, 0x41C8_3B0E, 0xA20B_C7C6, 0x6D54_51FD))
        #expect(RngBitGenerator.philox4x32(key: (0xA409_3822, 0x299F_31D0), counter: (0x243F_6A88, 0x85A3_08D3, 0x1319_8A2E, 0x0370_7344))
                == (0xD16C_FE09, 0x94FD_CCEB, 0x5001_E420, 0x2412_6EA1))
    }

    /// Edge (possibly negative) and interior padding on random shapes, against the per-index
    /// definition: output `o` reads input `(o - low) / (interior + 1)` when exact and inside.
    @Test(arguments: [1, 4])
    func edgeInteriorPaddingMatchesDefinition(elementSize: Int) {
        var rng = SplitMix64(seed: UInt64(400 + elementSize))
        for _ in 0..<80 {
            let rank = rng.int(1...3)
            let shape = (0..<rank).map { _ in rng.int(1...4) }
            let pads = shape.map { n in
                EdgeInteriorPad(low: rng.int(-n...3), high: rng.int(-1...3), interior: rng.int(0...2))
            }
            let outShape = zip(shape, pads).map { $1.paddedExtent($0) }
            guard outShape.allSatisfy({ $0 >= 0 }) else { continue }
            let got = numbered(Shape.elementCount(shape), outputCount: Shape.elementCount(outShape), elementSize: elementSize) { i, o in
                Pad.planEdgeInterior(inputShape: shape, padding: pads, elementSize: elementSize).run(input: i, output: o)
            }
            let want = (0..<Shape.elementCount(outShape)).map { f -> Int in
                var idx: [Int] = []
                for (d, o) in unflatten(f, outShape).enumerated() {
                    let p = o - pads[d].low, step = pads[d].interior + 1
                    guard p >= 0, p % step == 0, p / step < shape[d] else { return 0 }
                    idx.append(p / step)
                }
                return flatten(idx, shape)
            }
            #expect(got == stored(want, elementSize: elementSize), "\(shape) \(pads)")
        }
    }

    /// Window sums with strides and dilations against a direct loop over each window.
    @Test func reduceWindowMatchesDirectSums() {
        var rng = SplitMix64(seed: 411)
        for _ in 0..<60 {
            let rank = rng.int(1...3)
            let shape = (0..<rank).map { _ in rng.int(1...6) }
            let window = shape.map { _ in rng.int(1...3) }, strides = shape.map { _ in rng.int(1...2) }
            let dilations = shape.map { _ in rng.int(1...2) }
            let input = (0..<Shape.elementCount(shape)).map { _ in Int32(rng.int(-9...9)) }
            let plan = ReduceWindowPlan(inputShape: shape, window: window, strides: strides, dilations: dilations)
            let x = TestBuffer(input), initial = TestBuffer([Int32(100)])
            let y = TestBuffer(repeating: Int32(0), count: Shape.elementCount(plan.outputShape))
            plan.run(.add, element: .int32, input: x.raw, initial: initial.raw, output: y.mutableRaw)
            let want = (0..<Shape.elementCount(plan.outputShape)).map { f -> Int32 in
                let origin = unflatten(f, plan.outputShape).enumerated().map { $0.element * strides[$0.offset] }
                return (0..<Shape.elementCount(window)).reduce(Int32(100)) { acc, w in
                    let offset = unflatten(w, window).enumerated().map { origin[$0.offset] + $0.element * dilations[$0.offset] }
                    return acc + input[flatten(offset, shape)]
                }
            }
            #expect(y.array == want, "\(shape) window \(window) strides \(strides) dilations \(dilations)")
        }
    }
}

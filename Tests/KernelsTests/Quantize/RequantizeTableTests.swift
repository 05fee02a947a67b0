import TestSupport
import Testing
import Kernels

/// The 8-bit requantisation table against the fixed-point rescale it tabulates, over every
/// input byte, for the four 8-bit type pairs and random scales and zero points.
@Suite struct RequantizeTableTests {
    @Test(arguments: 0..<24)
    func tableEqualsRescale(seed: Int) {
        var rng = SplitMix64(seed: UInt64(500 + seed))
        let multiplier = QuantizedMultiplier(Double(rng.int(1...4000)) / 1000)
        let zx = Int32(rng.int(-128...127)), zy = Int32(rng.int(-128...127))
        switch seed % 4 {
        case 0: check(UInt8.self, Int8.self, zx + 128, zy, multiplier)
        case 1: check(Int8.self, UInt8.self, zx, zy + 128, multiplier)
        case 2: check(Int8.self, Int8.self, zx, zy, multiplier)
        default: check(UInt8.self, UInt8.self, zx + 128, zy + 128, multiplier)
        }
    }

    @Test func wideTypesAreNotTabulated() {
        #expect(ByteRequantizationTable<Int16, Int8>(inputZeroPoint: 0, outputZeroPoint: 0, multiplier: QuantizedMultiplier(1)) == nil)
    }

    private func check<In: QuantizedElement, Out: QuantizedElement>(_: In.Type, _: Out.Type, _ zx: Int32, _ zy: Int32,
                                                                    _ multiplier: QuantizedMultiplier) {
        let input = (0..<256).map { In(truncatingIfNeeded: $0) }
        var want = [Out](repeating: 0, count: 256), got = [Out](repeating: 0, count: 256)
        let table = ByteRequantizationTable<In, Out>(inputZeroPoint: zx, outputZeroPoint: zy, multiplier: multiplier)!
        input.withUnsafeBufferPointer { i in
            want.withUnsafeMutableBufferPointer {
                requantize(input: i.baseAddress!, inputZeroPoint: zx, output: $0.baseAddress!, outputZeroPoint: zy,
                           multiplier: multiplier, count: 256)
            }
            got.withUnsafeMutableBufferPointer { table.apply(input: i.baseAddress!, output: $0.baseAddress!, count: 256) }
        }
        #expect(got == want, "\(In.self) -> \(Out.self), zero points \(zx) \(zy)")
    }
}

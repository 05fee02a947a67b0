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

    /// At an unchanged scale, uint8 <-> int8 with zero points 128 apart (an image input's
    /// conversion) adds a constant to every byte: the table becomes a vector add, which must
    /// agree with the rescale over every byte, in a buffer long enough for the vector loop and
    /// a remainder. Zero points any other distance apart clamp some bytes: no shift then.
    @Test(arguments: [Int32(131), 127, 0, 255])
    func unchangedScaleIsAByteShift(inputZeroPoint zx: Int32) {
        let one = QuantizedMultiplier(1)
        let toInt8 = ByteRequantizationTable<UInt8, Int8>(inputZeroPoint: zx, outputZeroPoint: zx - 128, multiplier: one)!
        let toUInt8 = ByteRequantizationTable<Int8, UInt8>(inputZeroPoint: zx - 128, outputZeroPoint: zx, multiplier: one)!
        #expect(toInt8.byteShift == 128 && toUInt8.byteShift == 128)
        #expect(ByteRequantizationTable<UInt8, Int8>(inputZeroPoint: zx, outputZeroPoint: zx - 127, multiplier: one)!.byteShift == nil)
        #expect(ByteRequantizationTable<UInt8, Int8>(inputZeroPoint: zx, outputZeroPoint: zx - 128,
                                                     multiplier: QuantizedMultiplier(1.01))!.byteShift == nil)
        var rng = SplitMix64(seed: UInt64(zx))
        let bytes = (0..<1000).map { _ in UInt8(rng.int(0...255)) }
        check(UInt8.self, Int8.self, zx, zx - 128, one, input: bytes.map { UInt8(truncatingIfNeeded: $0) })
        check(Int8.self, UInt8.self, zx - 128, zx, one, input: bytes.map { Int8(truncatingIfNeeded: $0) })
    }

    @Test func wideTypesAreNotTabulated() {
        #expect(ByteRequantizationTable<Int16, Int8>(inputZeroPoint: 0, outputZeroPoint: 0, multiplier: QuantizedMultiplier(1)) == nil)
    }

    private func check<In: QuantizedElement, Out: QuantizedElement>(_: In.Type, _: Out.Type, _ zx: Int32, _ zy: Int32,
                                                                    _ multiplier: QuantizedMultiplier,
                                                                    input: [In] = (0..<256).map { In(truncatingIfNeeded: $0) }) {
        let count = input.count
        var want = [Out](repeating: 0, count: count), got = [Out](repeating: 0, count: count)
        let table = ByteRequantizationTable<In, Out>(inputZeroPoint: zx, outputZeroPoint: zy, multiplier: multiplier)!
        input.withUnsafeBufferPointer { i in
            want.withUnsafeMutableBufferPointer {
                Quantize.Quantized.requantize(input: i.baseAddress!, inputZeroPoint: zx, output: $0.baseAddress!, outputZeroPoint: zy,
                                              multiplier: multiplier, count: count)
            }
            got.withUnsafeMutableBufferPointer { table.apply(input: i.baseAddress!, output: $0.baseAddress!, count: count) }
        }
        #expect(got == want, "\(In.self) -> \(Out.self), zero points \(zx) \(zy)")
    }
}

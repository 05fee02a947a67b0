import Testing
import Kernels

@Suite struct CastTests {
    /// Casts `values` (whose Swift type must match `from`; pass typed arrays, since a bare
    /// literal can be inferred as `[Int]`) and reads the result back as `D`.
    func cast<S, D>(_ values: [S], _ from: CastType, _ to: CastType, _ fill: D) -> [D] {
        precondition(MemoryLayout<S>.size == from.byteSize && MemoryLayout<D>.size == to.byteSize)
        let input = TestBuffer(values), out = TestBuffer(repeating: fill, count: values.count)
        Cast.apply(input: input.raw, from: from, output: out.mutableRaw, to: to, count: values.count)
        return out.array
    }

    @Test func floatToIntegerTruncatesAndSaturates() {
        let x: [Float] = [1.9, -1.9, 0.5, 3e9, -3e9, .nan, .infinity, -0.0]
        #expect(cast(x, .float32, .int32, Int32(7)) == [1, -1, 0, Int32.max, Int32.min, 0, Int32.max, 0])
        #expect(cast(x, .float32, .uInt8, UInt8(7)) == [1, 0, 0, 255, 0, 0, 255, 0])
        #expect(cast(x, .float32, .bool, UInt8(7)) == [1, 1, 1, 1, 1, 1, 1, 0])
    }

    @Test func integersWrapAndWiden() {
        let x: [Int64] = [300, -1, Int64(Int32.max) + 1, 0]
        #expect(cast(x, .int64, .int32, Int32(7)) == [300, -1, Int32.min, 0])
        #expect(cast(x, .int64, .uInt8, UInt8(7)) == [44, 255, 0, 0])
        #expect(cast(x, .int64, .float32, Float.nan) == [300, -1, 2147483648, 0])
        let b: [UInt8] = [0, 1, 2, 255]
        #expect(cast(b, .bool, .int32, Int32(7)) == [0, 1, 1, 1])
        #expect(cast(b, .uInt8, .int8, Int8(7)) == [0, 1, 2, -1])
        // The vectorised byte-to-float paths, over every byte value.
        let bytes = (0...255).map { UInt8($0) }
        #expect(cast(bytes, .uInt8, .float32, Float.nan) == bytes.map { Float($0) })
        #expect(cast(bytes, .int8, .float32, Float.nan) == bytes.map { Float(Int8(bitPattern: $0)) })
        let big: [UInt64] = [UInt64.max]
        #expect(cast(big, .uInt64, .float64, Double.nan) == [Double(UInt64.max)])
    }

    @Test func floatWidths() {
        let x: [Float] = [1.5, -2.25, 65504, 1e-3]
        let d = cast(x, .float32, .float64, Double.nan)
        #expect(d == x.map(Double.init))
        let h = cast(x, .float32, .float16, UInt16(0))
        #expect(cast(h, .float16, .float32, Float.nan) == x.map { HalfPrecision.float(fromBits: HalfPrecision.bits(from: $0)) })
        let same: [Int32] = [3, -4]
        let copied = cast(same, .int32, .int32, Int32(0))
        #expect(copied == same)
    }
}

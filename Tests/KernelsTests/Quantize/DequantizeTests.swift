import TestSupport
import Testing
import Kernels

@Suite struct DequantizeTests {
    #if !(os(macOS) && arch(x86_64))
    /// Every one of the 65536 half-precision patterns against the platform's Float16.
    @Test func float16ConversionIsExactForEveryPattern() {
        let bits = TestBuffer((0...UInt16.max).map { $0 }), out = TestBuffer(repeating: Float(0), count: 65536)
        Dequantize.float16(input: bits.constant, output: out.pointer, count: 65536)
        var mismatches = 0, roundTripMismatches = 0
        for i in 0..<65536 {
            let want = Float(Float16(bitPattern: UInt16(i)))
            let got = out.array[i]
            if want.isNaN ? !got.isNaN : got.bitPattern != want.bitPattern { mismatches += 1 }
            if !want.isNaN && HalfPrecision.bits(from: got) != UInt16(i) { roundTripMismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(roundTripMismatches == 0)
    }

    /// Counts that leave a tail after the sixteen-at-a-time loop, at every offset into it:
    /// the tail's scalar conversion must agree with the vector one.
    @Test func float16TailsMatchTheVectorLoop() {
        var rng = SplitMix64(seed: 152)
        let bits = TestBuffer((0..<64).map { _ in UInt16(truncatingIfNeeded: rng.next()) & 0xFBFF })
        let whole = TestBuffer(repeating: Float.nan, count: 64)
        Dequantize.float16(input: bits.constant, output: whole.pointer, count: 64)
        for count in [1, 7, 15, 17, 31, 33, 47] {
            for start in [0, 1, 16 - count % 16] where start + count <= 64 {
                let out = TestBuffer(repeating: Float.nan, count: count)
                Dequantize.float16(input: bits.constant + start, output: out.pointer, count: count)
                #expect(out.array.map(\.bitPattern) == whole.array[start..<(start + count)].map(\.bitPattern),
                        "count \(count) from \(start)")
            }
        }
    }

    /// Float -> half rounding against the platform's conversion on random floats, including
    /// values that round to subnormals, overflow or sit on ties.
    @Test func float16RoundingMatchesPlatform() {
        var rng = SplitMix64(seed: 151)
        var values: [Float] = [65504, 65520, 65519.996, 1e-8, 2.98e-8, 5.96e-8, 6.1e-5, 1.0009765625, 1.00048828125, -0.0]
        for _ in 0..<20000 { values.append(Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))) }
        var mismatches = 0
        for v in values where !v.isNaN {
            if HalfPrecision.bits(from: v) != Float16(v).bitPattern { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
    #endif

    @Test func affineAndPerChannel() {
        let q = TestBuffer<Int8>([-128, -1, 0, 5, 127, 3])
        let out = TestBuffer(repeating: Float.nan, count: 6)
        Dequantize.Quantized.toFloat(AffineQuantization(scale: 0.5, zeroPoint: -1), input: q.constant, output: out.pointer, count: 6)
        #expect(out.array == [-63.5, 0, 0.5, 3, 64, 2])
        // Shape [2, 3] with per-channel parameters along axis 1.
        Dequantize.Quantized.perAxisToFloat(scales: [1, 0.25, 2], zeroPoints: [0, 0, 1], axis: 1, shape: [2, 3],
                                            input: q.constant, output: out.pointer)
        #expect(out.array == [-128, -0.25, -2, 5, 31.75, 4])
        let u = TestBuffer<UInt8>([0, 128, 255])
        Dequantize.Quantized.toFloat(AffineQuantization(scale: 0.1, zeroPoint: 128), input: u.constant, output: out.pointer, count: 3)
        #expect(Array(out.array.prefix(3)) == [Float(0.1 * -128.0), 0, Float(0.1 * 127.0)])
    }
}

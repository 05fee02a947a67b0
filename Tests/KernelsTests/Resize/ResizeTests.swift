import TestSupport
import Testing
import Kernels

@Suite struct ResizeTests {
    func bilinear(_ input: [Float], _ s: NHWC, _ o: NHWC, _ p: ResizeParams) -> [Float] {
        let inB = TestBuffer(input), out = TestBuffer(repeating: Float.nan, count: o.elementCount)
        Resize.bilinear(params: p, input: inB.constant, inputShape: s, output: out.pointer, outputShape: o)
        return out.array
    }

    @Test(arguments: [false, true])
    func sameSizeIsIdentity(halfPixel: Bool) {
        var rng = SplitMix64(seed: 61)
        let s = NHWC(batch: 2, height: 5, width: 7, channels: 3)
        let x = rng.floats(s.elementCount)
        #expect(bilinear(x, s, s, ResizeParams(alignCorners: false, halfPixelCenters: halfPixel)) == x)
    }

    /// With align_corners, output (y, x) samples input coordinate (y * (H-1)/(OH-1), ...);
    /// a linear ramp is reproduced exactly at that coordinate.
    @Test func alignCornersReproducesALinearRamp() {
        let s = NHWC(batch: 1, height: 4, width: 5, channels: 1), o = NHWC(batch: 1, height: 7, width: 9, channels: 1)
        let ramp: [Float] = (0..<20).map { Float(2 * ($0 / 5) + 3 * ($0 % 5)) }
        let out = bilinear(ramp, s, o, ResizeParams(alignCorners: true, halfPixelCenters: false))
        for y in 0..<7 { for x in 0..<9 {
            let sourceY: Float = Float(y) * 3 / 6, sourceX: Float = Float(x) * 4 / 8
            let want: Float = 2 * sourceY + 3 * sourceX
            #expect(abs(out[y * 9 + x] - want) <= 1e-5)
        } }
    }

    /// Half-pixel centres: interior samples sit at (i + 0.5) * in/out - 0.5 on the ramp;
    /// coordinates left of 0 clamp to the first pixel and past the end to the last one.
    @Test func halfPixelCentersSampleCentres() {
        let s = NHWC(batch: 1, height: 1, width: 4, channels: 2), o = NHWC(batch: 1, height: 1, width: 10, channels: 2)
        let ramp: [Float] = (0..<8).map { (i: Int) -> Float in
            let v = Float(i / 2)
            return i % 2 == 0 ? v : -v
        }
        let out = bilinear(ramp, s, o, ResizeParams(alignCorners: false, halfPixelCenters: true))
        for x in 0..<10 {
            let raw: Float = (Float(x) + 0.5) * 0.4 - 0.5
            let coordinate: Float = min(max(raw, 0), 3)
            #expect(abs(out[x * 2] - coordinate) <= 1e-5)
            #expect(abs(out[x * 2 + 1] + coordinate) <= 1e-5)
        }
    }

    /// Nearest neighbour on int16 data, all flag combinations, against TFLite's index rule
    /// written out: floor((i + offset) * scale), or round-half-away with align_corners,
    /// clamped to the input.
    @Test(arguments: [(false, false), (true, false), (false, true)])
    func nearestNeighborPicksTheDocumentedIndex(align: Bool, half: Bool) {
        let s = NHWC(batch: 1, height: 3, width: 5, channels: 2), o = NHWC(batch: 1, height: 7, width: 4, channels: 2)
        let input = TestBuffer((0..<Int16(s.elementCount)).map { $0 }), out = TestBuffer(repeating: Int16(-1), count: o.elementCount)
        Resize.nearestNeighbor(params: ResizeParams(alignCorners: align, halfPixelCenters: half), input: input.raw, inputShape: s,
                               output: out.mutableRaw, outputShape: o, elementSize: 2)
        func pick(_ i: Int, _ n: Int, _ m: Int) -> Int {
            let scale = align && m > 1 ? Double(n - 1) / Double(m - 1) : Double(n) / Double(m)
            let v = (Double(i) + (half ? 0.5 : 0)) * scale
            let r = align ? Int(v.rounded(.toNearestOrAwayFromZero)) : Int(v.rounded(.down))
            return max(0, min(r, n - 1))
        }
        var want: [Int16] = []
        for y in 0..<7 { for x in 0..<4 { for c in 0..<2 { want.append(Int16((pick(y, 3, 7) * 5 + pick(x, 5, 4)) * 2 + c)) } } }
        #expect(out.array == want)
    }
}

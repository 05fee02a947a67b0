import TestSupport
import Testing
import Kernels

@Suite struct PoolingTests {
    /// Brute force over the padded window, keeping only in-bounds elements, for all three pools.
    @Test(arguments: 0..<30)
    func poolsMatchWindowFormulas(seed: Int) {
        var rng = SplitMix64(seed: UInt64(7000 + seed))
        let fh = rng.int(1...4), fw = rng.int(1...4), sh = rng.int(1...3), sw = rng.int(1...3)
        // Few channels and, every third seed, enough for the channel loops to run whole vectors
        // and a remainder.
        let channels = seed % 3 == 0 ? rng.int(8...40) : rng.int(1...5)
        let s = NHWC(batch: rng.int(1...2), height: rng.int(fh...9), width: rng.int(fw...9), channels: channels)
        let made = ConvGeometry.make(padding: seed % 2 == 0 ? .same : .valid, inputHeight: s.height, inputWidth: s.width,
                                     filterHeight: fh, filterWidth: fw, strideHeight: sh, strideWidth: sw)!
        let o = NHWC(batch: s.batch, height: made.outputHeight, width: made.outputWidth, channels: s.channels)
        let params = PoolParams(geometry: made.geometry, filterHeight: fh, filterWidth: fw,
                                activation: [FusedActivation.none, .relu6][seed % 2].floatRange!)
        let input = rng.floats(s.elementCount, in: -8...8)
        var wantAvg: [Float] = [], wantMax: [Float] = [], wantL2: [Float] = []
        for b in 0..<o.batch { for oy in 0..<o.height { for ox in 0..<o.width { for c in 0..<o.channels {
            var values: [Float] = []
            for fy in 0..<fh { for fx in 0..<fw {
                let iy = oy * sh - made.geometry.paddingHeight.before + fy, ix = ox * sw - made.geometry.paddingWidth.before + fx
                if iy >= 0 && iy < s.height && ix >= 0 && ix < s.width { values.append(input[((b * s.height + iy) * s.width + ix) * s.channels + c]) }
            } }
            let mean = values.reduce(0, +) / Float(values.count)
            wantAvg.append(params.activation.clamp(mean))
            wantMax.append(params.activation.clamp(values.max()!))
            wantL2.append(params.activation.clamp((values.map { $0 * $0 }.reduce(0, +) / Float(values.count)).squareRoot()))
        } } } }
        let inB = TestBuffer(input)
        let avg = TestBuffer(repeating: Float.nan, count: o.elementCount), mx = TestBuffer(repeating: Float.nan, count: o.elementCount)
        let l2 = TestBuffer(repeating: Float.nan, count: o.elementCount)
        Pooling.average(params: params, input: inB.constant, inputShape: s, output: avg.pointer, outputShape: o)
        Pooling.max(params: params, input: inB.constant, inputShape: s, output: mx.pointer, outputShape: o)
        Pooling.l2(params: params, input: inB.constant, inputShape: s, output: l2.pointer, outputShape: o)
        #expect(maxAbsDifference(avg.array, wantAvg) <= 1e-5)
        #expect(mx.array == wantMax)
        #expect(maxAbsDifference(l2.array, wantL2) <= 1e-5)
    }
}

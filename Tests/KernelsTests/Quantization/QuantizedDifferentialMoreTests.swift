import TestSupport
import Foundation
import Testing
import Kernels

// More randomised differential tests (see QuantizedDifferentialTests): each kernel against
// "dequantise, compute in double, quantise". Bounds are stated per test.

@Suite struct QuantizedDifferentialMoreTests {
    // TRANSPOSE_CONV int8: 1 unit.
    @Test func transposeConvAgreesWithFloatWithinOneUnit() {
        var rng = SplitMix64(seed: 200)
        var worst = 0
        for _ in 0..<differentialIterations {
            let inShape = NHWC(batch: 1, height: Int.random(in: 1...4, using: &rng), width: Int.random(in: 1...4, using: &rng),
                               channels: Int.random(in: 1...3, using: &rng))
            let (k, stride) = (Int.random(in: 1...3, using: &rng), Int.random(in: 1...2, using: &rng))
            let outC = Int.random(in: 1...3, using: &rng)
            let outShape = NHWC(batch: 1, height: inShape.height * stride, width: inShape.width * stride, channels: outC)
            let forward = ConvGeometry.make(padding: .same, inputHeight: outShape.height, inputWidth: outShape.width,
                                            filterHeight: k, filterWidth: k, strideHeight: stride, strideWidth: stride)!.geometry
            let filterShape = NHWC(batch: outC, height: k, width: k, channels: inShape.channels)
            let iq = randomTestQuantization(Int8.self, using: &rng)
            let scales = (0..<outC).map { _ in Float.random(in: 0.002...0.02, using: &rng) }
            let input = randomStored(Int8.self, inShape.elementCount, using: &rng)
            let filter = randomStored(Int8.self, filterShape.elementCount, using: &rng).map { $0 == -128 ? -127 : $0 }
            var expected = [Double](repeating: 0, count: outShape.elementCount)
            for iy in 0..<inShape.height { for ix in 0..<inShape.width { for ic in 0..<inShape.channels {
                let x = realValue(input[(iy * inShape.width + ix) * inShape.channels + ic], iq)
                for ky in 0..<k { for kx in 0..<k {
                    let oy = iy * stride - forward.paddingHeight.before + ky, ox = ix * stride - forward.paddingWidth.before + kx
                    guard oy >= 0, oy < outShape.height, ox >= 0, ox < outShape.width else { continue }
                    for oc in 0..<outC {
                        let w = Double(scales[oc]) * Double(filter[((oc * k + ky) * k + kx) * inShape.channels + ic])
                        expected[(oy * outShape.width + ox) * outC + oc] += x * w
                    }
                }}
            }}}
            let oq = testOutputQuantization(Int8.self, for: expected)
            let params = QuantizedConvParams.make(geometry: forward, input: iq, filterScales: scales, filterZeroPoint: 0, output: oq,
                                                  outputChannels: outC, activation: .none, qmin: -128, qmax: 127)!
            var out = [Int8](repeating: 0, count: outShape.elementCount)
            var scratch = [Int32](repeating: 0, count: outShape.elementCount)
            input.withUnsafeBufferPointer { i in filter.withUnsafeBufferPointer { w in scratch.withUnsafeMutableBufferPointer { s in
                out.withUnsafeMutableBufferPointer {
                    TransposeConv.Quantized.reference(params, ConvOperands(input: i.baseAddress!, inputShape: inShape, filter: w.baseAddress!, filterShape: filterShape,
                                                      bias: nil, output: $0.baseAddress!, outputShape: outShape), scratch: s.baseAddress!)
                }
            }}}
            worst = max(worst, maxUnitError(out, expected, oq))
        }
        #expect(worst <= 1, "max error \(worst) units")
    }

    // BATCH_MATMUL int8 (adj_y both ways): 1 unit.
    @Test func batchMatMulAgreesWithFloatWithinOneUnit() {
        var rng = SplitMix64(seed: 201)
        var worst = 0
        for _ in 0..<differentialIterations {
            let (b, r, d, c) = (Int.random(in: 1...2, using: &rng), Int.random(in: 1...4, using: &rng), Int.random(in: 1...8, using: &rng), Int.random(in: 1...4, using: &rng))
            let adjY = Bool.random(using: &rng)
            let (ql, qr) = (randomTestQuantization(Int8.self, using: &rng), randomTestQuantization(Int8.self, using: &rng))
            let lhs = randomStored(Int8.self, b * r * d, using: &rng), rhs = randomStored(Int8.self, b * d * c, using: &rng)
            func rhsAt(_ bb: Int, _ kk: Int, _ jj: Int) -> Int8 { adjY ? rhs[bb * d * c + jj * d + kk] : rhs[bb * d * c + kk * c + jj] }
            var expected = [Double]()
            for bb in 0..<b { for i in 0..<r { for j in 0..<c {
                var acc = 0.0
                for kk in 0..<d { acc += realValue(lhs[(bb * r + i) * d + kk], ql) * realValue(rhsAt(bb, kk, j), qr) }
                expected.append(acc)
            }}}
            let oq = testOutputQuantization(Int8.self, for: expected)
            let p = QuantizedFullyConnectedParams.make(input: ql, filterScales: [qr.scale], filterZeroPoint: qr.zeroPoint, output: oq,
                                                       activation: .none, qmin: -128, qmax: 127, rounding: .double)!
            var out = [Int8](repeating: 0, count: b * r * c)
            lhs.withUnsafeBufferPointer { l in rhs.withUnsafeBufferPointer { rr in out.withUnsafeMutableBufferPointer {
                BatchMatMul.Quantized.reference(p, lhs: l.baseAddress!, lhsBatchStride: r * d, rhs: rr.baseAddress!, rhsBatchStride: d * c,
                                                rhsRowStride: adjY ? 1 : c, rhsColumnStride: adjY ? d : 1,
                                                batches: b, rows: r, depth: d, columns: c, output: $0.baseAddress!)
            }}}
            worst = max(worst, maxUnitError(out, expected, oq))
        }
        #expect(worst <= 1, "max error \(worst) units")
    }

    // PRELU, RELU, RELU6, RELU_N1_TO_1, SQUARED_DIFFERENCE, ABS, EXP, LOG: 1 unit. SQRT truncates
    // like LiteRT (1 unit against rounding). RSQRT (fixed point) and LOG_SOFTMAX: 1 unit.
    // L2_NORMALIZATION: 1 unit.
    @Test func elementwiseKernelsAgreeWithFloat() {
        var rng = SplitMix64(seed: 202)
        var worst: [String: Int] = [:]
        for _ in 0..<differentialIterations {
            let n = Int.random(in: 2...48, using: &rng)
            let iq = randomTestQuantization(Int8.self, using: &rng)
            let input = randomStored(Int8.self, n, using: &rng)
            let x = input.map { realValue($0, iq) }
            func record(_ name: String, _ oq: AffineQuantization, _ expected: [Double], _ kernel: (UnsafePointer<Int8>, UnsafeMutablePointer<Int8>) -> Void) {
                var out = [Int8](repeating: 0, count: n)
                input.withUnsafeBufferPointer { i in out.withUnsafeMutableBufferPointer { kernel(i.baseAddress!, $0.baseAddress!) } }
                worst[name] = max(worst[name] ?? 0, maxUnitError(out, expected, oq))
            }
            // PRELU with a per-element alpha.
            let aq = testQuantization(Int8.self, lo: -0.5, hi: 0.5)
            let alpha = randomStored(Int8.self, n, using: &rng)
            let prelu = zip(x, alpha).map { $0 >= 0 ? $0 : $0 * realValue($1, aq) }
            let pq = testOutputQuantization(Int8.self, for: prelu)
            let pp = QuantizedPreluParams.make(input: iq, alpha: aq, output: pq)
            record("PRELU", pq, prelu) { i, o in alpha.withUnsafeBufferPointer { a in
                Activations.Quantized.prelu(pp, input: i, inputShape: [n], alpha: a.baseAddress!, alphaShape: [n], output: o, outputShape: [n]) } }
            for (name, lo, hi) in [("RELU", Float(0), Float.infinity), ("RELU6", 0, 6), ("RELU_N1_TO_1", -1, 1)] {
                let expected = x.map { min(max($0, Double(lo)), Double(hi)) }
                let oq = testOutputQuantization(Int8.self, for: expected + [Double(lo), -0.01])
                let p = QuantizedReluParams.relu(lower: lo, upper: hi, input: iq, output: oq, qmin: -128, qmax: 127)
                record(name, oq, expected) { Activations.Quantized.relu(p, input: $0, output: $1, count: n) }
            }
            let other = randomStored(Int8.self, n, using: &rng)
            let oqIn = randomTestQuantization(Int8.self, using: &rng)
            let sq = zip(x, other).map { ($0 - realValue($1, oqIn)) * ($0 - realValue($1, oqIn)) }
            let sqq = testOutputQuantization(Int8.self, for: sq)
            let sqp = QuantizedAddParams.makeSquaredDifference(input1: iq, input2: oqIn, output: sqq, qmin: -128, qmax: 127)
            record("SQUARED_DIFFERENCE", sqq, sq) { i, o in other.withUnsafeBufferPointer { y in
                Elementwise.Quantized.rescaledBinary(.squaredDifference, sqp, i, shape: [n], y.baseAddress!, shape: [n], output: o, outputShape: [n]) } }
            let absq = testOutputQuantization(Int8.self, for: x.map(abs))
            record("ABS", absq, x.map(abs)) { Elementwise.Quantized.absoluteValue(input: $0, inputQuantization: iq, output: $1, outputQuantization: absq, count: n) }
            let expq = testOutputQuantization(Int8.self, for: x.map(Foundation.exp))
            record("EXP", expq, x.map(Foundation.exp)) { Activations.Quantized.lookup(.exp(input: iq, output: expq), input: $0, output: $1, count: n) }
            // Positive-only inputs for LOG, SQRT and RSQRT (the zero point at the storage minimum).
            let pos = AffineQuantization(scale: iq.scale, zeroPoint: -128)
            let px = input.map { realValue($0, pos) }
            let logs = px.map { $0 > 0 ? Foundation.log($0) : -1e9 }
            let logq = testOutputQuantization(Int8.self, for: logs.filter { $0 > -1e8 } + [0])
            record("LOG", logq, logs) { Activations.Quantized.lookup(.log(input: pos, output: logq), input: $0, output: $1, count: n) }
            let roots = px.map { $0.squareRoot() }
            let rootq = testOutputQuantization(Int8.self, for: roots)
            record("SQRT", rootq, roots) { Elementwise.Quantized.squareRoot(input: $0, inputQuantization: pos, output: $1, outputQuantization: rootq, count: n) }
            let inv = px.map { $0 > 0 ? 1 / $0.squareRoot() : 1e9 }
            let invq = testOutputQuantization(Int8.self, for: inv.filter { $0 < 1e8 } + [0])
            record("RSQRT", invq, inv) { Elementwise.Quantized.reciprocalSquareRoot(Int8RsqrtParams(input: pos, output: invq), input: $0, output: $1, count: n) }
            // LOG_SOFTMAX and L2_NORMALIZATION with TFLite's fixed output quantisations.
            let m = x.max()!
            let logSum = Foundation.log(x.map { Foundation.exp($0 - m) }.reduce(0, +))
            let lsq = AffineQuantization(scale: 16.0 / 256, zeroPoint: 127)
            record("LOG_SOFTMAX", lsq, x.map { $0 - m - logSum }) {
                Softmax.Quantized.logSoftmax(Int8LogSoftmaxParams(inputScale: iq.scale), input: $0, output: $1, rows: 1, depth: n)
            }
            let norm = x.map { $0 * $0 }.reduce(0, +).squareRoot()
            if norm > 0 {
                let l2q = AffineQuantization(scale: 1.0 / 128, zeroPoint: 0)
                record("L2_NORMALIZATION", l2q, x.map { $0 / norm }) {
                    L2Normalization.Quantized.reference(inputZeroPoint: iq.zeroPoint, input: $0, output: $1, rows: 1, depth: n)
                }
            }
        }
        for (name, w) in worst.sorted(by: { $0.key < $1.key }) {
            #expect(w <= 1, "\(name): max error \(w) units")
        }
    }

    // QUANTIZE from float (exact: the same rounding by definition) and DEQUANTIZE (exact in
    // double, then rounded to float).
    @Test func quantizeAndDequantizeMatchTheirFormulas() {
        var rng = SplitMix64(seed: 203)
        for _ in 0..<differentialIterations {
            let q = randomTestQuantization(Int8.self, using: &rng)
            let values = (0..<32).map { _ in Float.random(in: -10...10, using: &rng) }
            var stored = [Int8](repeating: 0, count: 32)
            var back = [Float](repeating: 0, count: 32)
            values.withUnsafeBufferPointer { v in stored.withUnsafeMutableBufferPointer { Quantize.Quantized.fromFloat(q, input: v.baseAddress!, output: $0.baseAddress!, count: 32) } }
            stored.withUnsafeBufferPointer { s in back.withUnsafeMutableBufferPointer { Dequantize.Quantized.toFloat(q, input: s.baseAddress!, output: $0.baseAddress!, count: 32) } }
            for i in 0..<32 {
                let expected = min(max((values[i] / q.scale).rounded(.toNearestOrAwayFromZero) + Float(q.zeroPoint), -128), 127)
                #expect(Float(stored[i]) == expected)
                #expect(back[i] == Float(Double(q.scale) * Double(Int32(stored[i]) - q.zeroPoint)))
            }
        }
    }

    // REDUCE_PROD int8: TFLite rescales after every multiplication and rounds the running
    // product to an integer, with a multiplier reduced to 16 bits, so errors compound. The bound
    // is derived per case: each step adds half a unit plus the multiplier's relative error
    // (2^-14, generous for a 15-bit significand) of the running product, earlier errors are
    // scaled by the later factors, and the final rescale and the reference's own rounding add
    // one unit.
    @Test func reduceProdIsWithinTheCompoundedRoundingBound() {
        var rng = SplitMix64(seed: 204)
        var cases = 0
        for _ in 0..<differentialIterations {
            let (outer, count) = (Int.random(in: 1...4, using: &rng), Int.random(in: 1...4, using: &rng))
            let iq = testQuantization(Int8.self, lo: -1.5, hi: 1.5)
            let input = randomStored(Int8.self, outer * count, using: &rng)
            let expected = (0..<outer).map { o in (0..<count).reduce(1.0) { $0 * realValue(input[o * count + $1], iq) } }
            let oq = testOutputQuantization(Int8.self, for: expected)
            let params = QuantizedReduceProdParams(input: iq, output: oq, count: count)
            var out = [Int8](repeating: 0, count: outer)
            let products = TestBuffer(repeating: Int64(0), count: outer)
            input.withUnsafeBufferPointer { i in out.withUnsafeMutableBufferPointer {
                Reduce.Quantized.product(params, input: i.baseAddress!, inputShape: [outer, count], reduced: [false, true],
                                         output: $0.baseAddress!, outputCount: outer, products: products.pointer)
            }}
            let s = params.scaling.realValue
            for o in 0..<outer {
                var magnitude = abs(Double(Int32(input[o * count]) - iq.zeroPoint)), error = 0.0
                for k in 1..<count {
                    let factor = abs(Double(Int32(input[o * count + k]) - iq.zeroPoint)) * s
                    magnitude *= factor
                    error = error * factor + 0.5 + magnitude * 0x1p-14
                }
                let bound = error * s + magnitude * s * 0x1p-14 + 1.5
                let actual = Double(out[o]), reference = Double(quantizeReference(expected[o], oq, Int8.self))
                #expect(abs(actual - reference) <= bound.rounded(.up), "\(input[(o * count)..<((o + 1) * count)]): \(actual) vs \(reference)")
                cases += 1
            }
        }
        #expect(cases > 0)
    }

    // CONV_2D 16x8: 1 unit of int16.
    @Test func conv2DInt16x8AgreesWithFloatWithinOneUnit() {
        var rng = SplitMix64(seed: 205)
        var worst = 0
        for _ in 0..<differentialIterations {
            let inShape = NHWC(batch: 1, height: Int.random(in: 2...6, using: &rng), width: Int.random(in: 2...6, using: &rng), channels: Int.random(in: 1...3, using: &rng))
            let (k, outC) = (Int.random(in: 1...3, using: &rng), Int.random(in: 1...4, using: &rng))
            let (g, oh, ow) = ConvGeometry.make(padding: .same, inputHeight: inShape.height, inputWidth: inShape.width,
                                                filterHeight: k, filterWidth: k, strideHeight: 1, strideWidth: 1)!
            let outShape = NHWC(batch: 1, height: oh, width: ow, channels: outC)
            let filterShape = NHWC(batch: outC, height: k, width: k, channels: inShape.channels)
            let iq = AffineQuantization(scale: Float.random(in: 1e-5...1e-4, using: &rng), zeroPoint: 0)
            let scales = (0..<outC).map { _ in Float.random(in: 0.002...0.02, using: &rng) }
            let input = randomStored(Int16.self, inShape.elementCount, using: &rng)
            let filter = randomStored(Int8.self, filterShape.elementCount, using: &rng).map { $0 == -128 ? -127 : $0 }
            var expected = [Double]()
            for oy in 0..<oh { for ox in 0..<ow { for oc in 0..<outC {
                var acc = 0.0
                for ky in 0..<k { for kx in 0..<k {
                    let iy = oy - g.paddingHeight.before + ky, ix = ox - g.paddingWidth.before + kx
                    guard iy >= 0, iy < inShape.height, ix >= 0, ix < inShape.width else { continue }
                    for ic in 0..<inShape.channels {
                        acc += realValue(input[(iy * inShape.width + ix) * inShape.channels + ic], iq)
                            * Double(scales[oc]) * Double(filter[((oc * k + ky) * k + kx) * inShape.channels + ic])
                    }
                }}
                expected.append(acc)
            }}}
            let peak = max(expected.map(abs).max() ?? 1, 1e-6)
            let oq = AffineQuantization(scale: Float(peak / 32767), zeroPoint: 0)
            let params = QuantizedConvParams.make(geometry: g, input: iq, filterScales: scales, filterZeroPoint: 0, output: oq,
                                                  outputChannels: outC, activation: .none, qmin: -32768, qmax: 32767)!
            var out = [Int16](repeating: 0, count: outShape.elementCount)
            input.withUnsafeBufferPointer { i in filter.withUnsafeBufferPointer { w in out.withUnsafeMutableBufferPointer {
                Conv2D.Int16x8.reference(params, ConvOperands(input: i.baseAddress!, inputShape: inShape, filter: w.baseAddress!, filterShape: filterShape,
                                         bias: nil, output: $0.baseAddress!, outputShape: outShape))
            }}}
            worst = max(worst, maxUnitError(out, expected, oq))
        }
        #expect(worst <= 1, "max error \(worst) units")
    }

    // Hybrid FULLY_CONNECTED: float output within the error the on-the-fly input quantisation
    // allows: sum |w * filterScale| * inputScale / 2 per output (plus float rounding).
    @Test(arguments: [false, true])
    func hybridFullyConnectedIsWithinTheInputQuantisationError(asymmetric: Bool) {
        var rng = SplitMix64(seed: asymmetric ? 207 : 206)
        for _ in 0..<differentialIterations {
            let (batches, depth, units) = (Int.random(in: 1...3, using: &rng), Int.random(in: 1...40, using: &rng), Int.random(in: 1...8, using: &rng))
            let scales = (0..<units).map { _ in Float.random(in: 0.002...0.02, using: &rng) }
            let input = (0..<(batches * depth)).map { _ in Float.random(in: -3...3, using: &rng) }
            let filter = randomStored(Int8.self, units * depth, using: &rng).map { $0 == -128 ? -127 : $0 }
            let bias = (0..<units).map { _ in Float.random(in: -1...1, using: &rng) }
            var out = [Float](repeating: 0, count: batches * units)
            var scratch = [Int8](repeating: 0, count: hybridScratchCount(batches: batches, batchSize: depth))
            input.withUnsafeBufferPointer { i in filter.withUnsafeBufferPointer { w in bias.withUnsafeBufferPointer { bb in
                scratch.withUnsafeMutableBufferPointer { s in out.withUnsafeMutableBufferPointer {
                    FullyConnected.Hybrid.reference(filterScales: scales, activation: ActivationRange(min: -.infinity, max: .infinity),
                                                    asymmetricInputs: asymmetric, input: i.baseAddress!, batches: batches, inputDepth: depth,
                                                    filter: .int8(w.baseAddress!), outputDepth: units, bias: bb.baseAddress, output: $0.baseAddress!,
                                                    scratch: s.baseAddress!)
                }}
            }}}
            for b in 0..<batches {
                let row = input[(b * depth)..<((b + 1) * depth)]
                let inputScale = asymmetric ? Double(max(row.max()!, 0) - min(row.min()!, 0)) / 255 : Double(row.map(abs).max()!) / 127
                for u in 0..<units {
                    var exact = Double(bias[u]), weightSum = 0.0
                    for d in 0..<depth {
                        let w = Double(scales[u]) * Double(filter[u * depth + d])
                        exact += Double(input[b * depth + d]) * w
                        weightSum += abs(w)
                    }
                    let bound = weightSum * inputScale / 2 * 1.01 + 1e-5 * max(1, abs(exact))
                    #expect(abs(Double(out[b * units + u]) - exact) <= bound)
                }
            }
        }
    }
}

import TestSupport
import Foundation
import Testing
import Kernels

// Randomised differential tests: each quantised kernel against "dequantise, compute the op in
// double, quantise" on random shapes, scales and zero points. The bound per op is the one
// TFLite's own kernel tests accept for that op (stated beside each test).

let differentialIterations = 60

/// A real range `[lo, hi]` (containing 0) turned into a scale and zero point for `T`, as the
/// TFLite converter does.
func testQuantization<T: QuantizedElement>(_: T.Type, lo: Double, hi: Double) -> AffineQuantization {
    let lo = min(lo, 0), hi = max(hi, 0)
    let levels = Double(T.quantizedMax - T.quantizedMin)
    let scale = max((hi - lo) / levels, 1e-6)
    let zero = (Double(T.quantizedMin) - lo / scale).rounded()
    return AffineQuantization(scale: Float(scale), zeroPoint: Int32(min(max(zero, Double(T.quantizedMin)), Double(T.quantizedMax))))
}

func randomTestQuantization<T: QuantizedElement>(_: T.Type, using rng: inout SplitMix64) -> AffineQuantization {
    let span = Double.random(in: 0.5...8, using: &rng)
    let lo = -span * Double.random(in: 0...1, using: &rng)
    return testQuantization(T.self, lo: lo, hi: lo + span)
}

func quantizeReference<T: QuantizedElement>(_ x: Double, _ q: AffineQuantization, _: T.Type) -> Int32 {
    let v = (x / Double(q.scale)).rounded(.toNearestOrAwayFromZero) + Double(q.zeroPoint)
    return Int32(min(max(v, Double(T.quantizedMin)), Double(T.quantizedMax)))
}

func realValue<T: QuantizedElement>(_ v: T, _ q: AffineQuantization) -> Double {
    Double(q.scale) * Double(Int32(v) - q.zeroPoint)
}

func randomStored<T: QuantizedElement>(_: T.Type, _ n: Int, using rng: inout SplitMix64) -> [T] {
    (0..<n).map { _ in T(truncatingIfNeeded: Int32.random(in: T.quantizedMin...T.quantizedMax, using: &rng)) }
}

/// The output position of input element `i` (row-major in `shape`) when the axes flagged in
/// `reduced` are reduced: its coordinates along the kept axes, flattened.
func reducedIndex(_ i: Int, shape: [Int], reduced: [Bool]) -> Int {
    var rem = i, o = 0, step = 1
    for axis in shape.indices.reversed() {
        let c = rem % shape[axis]
        rem /= shape[axis]
        if !reduced[axis] { o += c * step; step *= shape[axis] }
    }
    return o
}

/// Largest difference between stored results and the quantised real results.
func maxUnitError<T: QuantizedElement>(_ actual: [T], _ expected: [Double], _ q: AffineQuantization) -> Int {
    zip(actual, expected).map { abs(Int(Int32($0)) - Int(quantizeReference($1, q, T.self))) }.max() ?? 0
}

/// An output quantisation covering the given real values.
func testOutputQuantization<T: QuantizedElement>(_: T.Type, for values: [Double]) -> AffineQuantization {
    testQuantization(T.self, lo: values.min() ?? -1, hi: max(values.max() ?? 1, (values.min() ?? 0) + 1e-3))
}

@Suite struct QuantizedDifferentialTests {
    // CONV_2D: TFLite's conv tests compare with a 1-unit tolerance.
    @Test(arguments: [false, true])
    func conv2DAgreesWithFloatWithinOneUnit(uint8: Bool) {
        var rng = SplitMix64(seed: uint8 ? 11 : 10)
        var worst = 0
        for _ in 0..<differentialIterations {
            worst = max(worst, uint8 ? convCase(UInt8.self, &rng, depthwise: false) : convCase(Int8.self, &rng, depthwise: false))
        }
        #expect(worst <= 1, "max error \(worst) units")
    }

    // DEPTHWISE_CONV_2D: 1 unit.
    @Test(arguments: [false, true])
    func depthwiseConv2DAgreesWithFloatWithinOneUnit(uint8: Bool) {
        var rng = SplitMix64(seed: uint8 ? 21 : 20)
        var worst = 0
        for _ in 0..<differentialIterations {
            worst = max(worst, uint8 ? convCase(UInt8.self, &rng, depthwise: true) : convCase(Int8.self, &rng, depthwise: true))
        }
        #expect(worst <= 1, "max error \(worst) units")
    }

    private func convCase<T: QuantizedElement>(_: T.Type, _ rng: inout SplitMix64, depthwise: Bool) -> Int {
        let symmetric = T.self == Int8.self
        let inShape = NHWC(batch: Int.random(in: 1...2, using: &rng), height: Int.random(in: 3...8, using: &rng),
                           width: Int.random(in: 3...8, using: &rng), channels: Int.random(in: 1...4, using: &rng))
        let multiplier = depthwise ? Int.random(in: 1...2, using: &rng) : 1
        let outChannels = depthwise ? inShape.channels * multiplier : Int.random(in: 1...5, using: &rng)
        let (kh, kw) = (Int.random(in: 1...3, using: &rng), Int.random(in: 1...3, using: &rng))
        let stride = Int.random(in: 1...2, using: &rng), dilation = Int.random(in: 1...2, using: &rng)
        let padding: PaddingScheme = Bool.random(using: &rng) ? .same : .valid
        guard let (geometry, oh, ow) = ConvGeometry.make(padding: padding, inputHeight: inShape.height, inputWidth: inShape.width,
                                                        filterHeight: kh, filterWidth: kw, strideHeight: stride, strideWidth: stride,
                                                        dilationHeight: dilation, dilationWidth: dilation), oh > 0, ow > 0
        else { return 0 }
        let outShape = NHWC(batch: inShape.batch, height: oh, width: ow, channels: outChannels)
        let filterShape = depthwise ? NHWC(batch: 1, height: kh, width: kw, channels: outChannels)
            : NHWC(batch: outChannels, height: kh, width: kw, channels: inShape.channels)
        let iq = randomTestQuantization(T.self, using: &rng)
        let filterScales = (0..<(symmetric ? outChannels : 1)).map { _ in Float.random(in: 0.002...0.02, using: &rng) }
        let filterZero: Int32 = symmetric ? 0 : Int32.random(in: 100...150, using: &rng)
        let input = randomStored(T.self, inShape.elementCount, using: &rng)
        var filter = randomStored(T.self, filterShape.elementCount, using: &rng)
        if symmetric { filter = filter.map { $0 == T.min ? T(truncatingIfNeeded: -127) : $0 } }
        let bias = (0..<outChannels).map { _ in Int32.random(in: -2000...2000, using: &rng) }
        func filterScale(_ c: Int) -> Double { Double(filterScales.count == 1 ? filterScales[0] : filterScales[c]) }
        // Float reference in double.
        var expected = [Double](repeating: 0, count: outShape.elementCount)
        for b in 0..<outShape.batch { for oy in 0..<oh { for ox in 0..<ow { for oc in 0..<outChannels {
            var acc = Double(bias[oc]) * Double(iq.scale) * filterScale(oc)
            for ky in 0..<kh { for kx in 0..<kw {
                let iy = oy * stride - geometry.paddingHeight.before + ky * dilation
                let ix = ox * stride - geometry.paddingWidth.before + kx * dilation
                guard iy >= 0, iy < inShape.height, ix >= 0, ix < inShape.width else { continue }
                let channels = depthwise ? [oc / multiplier] : Array(0..<inShape.channels)
                for ic in channels {
                    let x = realValue(input[((b * inShape.height + iy) * inShape.width + ix) * inShape.channels + ic], iq)
                    let fIndex = depthwise ? (ky * kw + kx) * outChannels + oc : ((oc * kh + ky) * kw + kx) * inShape.channels + ic
                    let w = filterScale(oc) * Double(Int32(filter[fIndex]) - filterZero)
                    acc += x * w
                }
            }}
            expected[((b * oh + oy) * ow + ox) * outChannels + oc] = acc
        }}}}
        let oq = testOutputQuantization(T.self, for: expected)
        let params = QuantizedConvParams.make(geometry: geometry, input: iq, filterScales: filterScales, filterZeroPoint: filterZero,
                                              output: oq, outputChannels: outChannels, activation: .none,
                                              qmin: T.quantizedMin, qmax: T.quantizedMax)!
        var out = [T](repeating: 0, count: outShape.elementCount)
        input.withUnsafeBufferPointer { i in filter.withUnsafeBufferPointer { w in bias.withUnsafeBufferPointer { bb in
            out.withUnsafeMutableBufferPointer { o in
                if depthwise {
                    DepthwiseConv2D.Quantized.reference(params, depthMultiplier: multiplier, ConvOperands(input: i.baseAddress!, inputShape: inShape,
                                                        filter: w.baseAddress!, filterShape: filterShape, bias: bb.baseAddress, output: o.baseAddress!, outputShape: outShape))
                } else {
                    Conv2D.Quantized.reference(params, ConvOperands(input: i.baseAddress!, inputShape: inShape, filter: w.baseAddress!, filterShape: filterShape,
                                               bias: bb.baseAddress, output: o.baseAddress!, outputShape: outShape))
                }
            }
        }}}
        return maxUnitError(out, expected, oq)
    }

    // FULLY_CONNECTED: 1 unit.
    @Test(arguments: [false, true])
    func fullyConnectedAgreesWithFloatWithinOneUnit(uint8: Bool) {
        var rng = SplitMix64(seed: uint8 ? 31 : 30)
        var worst = 0
        for _ in 0..<differentialIterations {
            worst = max(worst, uint8 ? fcCase(UInt8.self, &rng) : fcCase(Int8.self, &rng))
        }
        #expect(worst <= 1, "max error \(worst) units")
    }

    private func fcCase<T: QuantizedElement>(_: T.Type, _ rng: inout SplitMix64) -> Int {
        let symmetric = T.self == Int8.self
        let (batches, depth, units) = (Int.random(in: 1...3, using: &rng), Int.random(in: 1...40, using: &rng), Int.random(in: 1...10, using: &rng))
        let iq = randomTestQuantization(T.self, using: &rng)
        let scales = (0..<(symmetric ? units : 1)).map { _ in Float.random(in: 0.002...0.02, using: &rng) }
        let filterZero: Int32 = symmetric ? 0 : Int32.random(in: 100...150, using: &rng)
        let input = randomStored(T.self, batches * depth, using: &rng)
        let filter = randomStored(T.self, units * depth, using: &rng).map { symmetric && $0 == T.min ? T(truncatingIfNeeded: -127) : $0 }
        let bias = (0..<units).map { _ in Int32.random(in: -2000...2000, using: &rng) }
        func s(_ c: Int) -> Double { Double(scales.count == 1 ? scales[0] : scales[c]) }
        var expected = [Double]()
        for b in 0..<batches { for u in 0..<units {
            var acc = Double(bias[u]) * Double(iq.scale) * s(u)
            for d in 0..<depth { acc += realValue(input[b * depth + d], iq) * s(u) * Double(Int32(filter[u * depth + d]) - filterZero) }
            expected.append(max(acc, 0))   // fused RELU
        }}
        let oq = testOutputQuantization(T.self, for: expected + [-0.5])
        let params = QuantizedFullyConnectedParams.make(input: iq, filterScales: scales, filterZeroPoint: filterZero, output: oq,
                                                        activation: .relu, qmin: T.quantizedMin, qmax: T.quantizedMax,
                                                        rounding: .single)!
        var out = [T](repeating: 0, count: batches * units)
        input.withUnsafeBufferPointer { i in filter.withUnsafeBufferPointer { w in bias.withUnsafeBufferPointer { bb in
            out.withUnsafeMutableBufferPointer { o in
                FullyConnected.Quantized.reference(params, input: i.baseAddress!, batches: batches, inputDepth: depth, filter: w.baseAddress!,
                                                   outputDepth: units, bias: bb.baseAddress, output: o.baseAddress!)
            }
        }}}
        return maxUnitError(out, expected, oq)
    }

    // ADD / SUB / MUL with broadcasting: 1 unit (TFLite's add/mul tests use a 1-step tolerance).
    @Test(arguments: ["ADD", "SUB", "MUL"])
    func binaryAgreesWithFloatWithinOneUnit(op: String) {
        var rng = SplitMix64(seed: UInt64(op.utf8.reduce(0) { $0 * 31 + UInt64($1) }))
        var worst = 0
        for k in 0..<differentialIterations {
            worst = max(worst, k % 2 == 0 ? binaryCase(Int8.self, op, &rng) : binaryCase(UInt8.self, op, &rng))
        }
        #expect(worst <= 1, "max error \(worst) units")
    }

    private func binaryCase<T: QuantizedElement>(_: T.Type, _ op: String, _ rng: inout SplitMix64) -> Int {
        let outShape = (0..<Int.random(in: 1...4, using: &rng)).map { _ in Int.random(in: 1...4, using: &rng) }
        let aShape = outShape
        let bShape = outShape.map { Bool.random(using: &rng) ? 1 : $0 }
        let (qa, qb) = (randomTestQuantization(T.self, using: &rng), randomTestQuantization(T.self, using: &rng))
        let a = randomStored(T.self, aShape.reduce(1, *), using: &rng)
        let b = randomStored(T.self, bShape.reduce(1, *), using: &rng)
        var expected = [Double]()
        let bStrides = stridesForBroadcast(bShape, outShape)
        for i in 0..<a.count {
            var rem = i, bi = 0
            for axis in (0..<outShape.count).reversed() {
                bi += (rem % outShape[axis]) * bStrides[axis]
                rem /= outShape[axis]
            }
            let (x, y) = (realValue(a[i], qa), realValue(b[bi], qb))
            expected.append(op == "ADD" ? x + y : op == "SUB" ? x - y : x * y)
        }
        let oq = testOutputQuantization(T.self, for: expected)
        var out = [T](repeating: 0, count: a.count)
        a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in out.withUnsafeMutableBufferPointer { o in
            if op == "MUL" {
                let p = QuantizedMulParams.make(input1: qa, input2: qb, output: oq, activation: .none, qmin: T.quantizedMin, qmax: T.quantizedMax)!
                Elementwise.Quantized.mul(p, x.baseAddress!, shape: aShape, y.baseAddress!, shape: bShape, output: o.baseAddress!, outputShape: outShape)
            } else {
                let p = QuantizedAddParams.make(input1: qa, input2: qb, output: oq, activation: .none, qmin: T.quantizedMin, qmax: T.quantizedMax)!
                if op == "ADD" {
                    Elementwise.Quantized.rescaledBinary(.add, p, x.baseAddress!, shape: aShape, y.baseAddress!, shape: bShape, output: o.baseAddress!, outputShape: outShape)
                } else {
                    Elementwise.Quantized.rescaledBinary(.subtract, p, x.baseAddress!, shape: aShape, y.baseAddress!, shape: bShape, output: o.baseAddress!, outputShape: outShape)
                }
            }
        }}}
        return maxUnitError(out, expected, oq)
    }

    private func stridesForBroadcast(_ shape: [Int], _ output: [Int]) -> [Int] {
        var strides = [Int](repeating: 0, count: output.count)
        var step = 1
        for axis in (0..<output.count).reversed() {
            strides[axis] = shape[axis] == 1 ? 0 : step
            step *= shape[axis]
        }
        return strides
    }

    // AVERAGE_POOL_2D: 1 unit; MAX_POOL_2D: exact (a selection, no arithmetic).
    @Test func poolsAgreeWithFloat() {
        var rng = SplitMix64(seed: 40)
        var worstAverage = 0, worstMax = 0
        for _ in 0..<differentialIterations {
            let shape = NHWC(batch: 1, height: Int.random(in: 2...9, using: &rng), width: Int.random(in: 2...9, using: &rng),
                             channels: Int.random(in: 1...3, using: &rng))
            let k = Int.random(in: 1...3, using: &rng), stride = Int.random(in: 1...2, using: &rng)
            let padding: PaddingScheme = Bool.random(using: &rng) ? .same : .valid
            guard let (g, oh, ow) = ConvGeometry.make(padding: padding, inputHeight: shape.height, inputWidth: shape.width,
                                                      filterHeight: k, filterWidth: k, strideHeight: stride, strideWidth: stride),
                  oh > 0, ow > 0 else { continue }
            let outShape = NHWC(batch: 1, height: oh, width: ow, channels: shape.channels)
            let q = randomTestQuantization(Int8.self, using: &rng)
            let input = randomStored(Int8.self, shape.elementCount, using: &rng)
            let params = QuantizedPoolParams(geometry: g, filterHeight: k, filterWidth: k, activation: ActivationRange(min: -128, max: 127))
            var average = [Double](), maximum = [Double]()
            for oy in 0..<oh { for ox in 0..<ow { for c in 0..<shape.channels {
                var values = [Double]()
                for ky in 0..<k { for kx in 0..<k {
                    let iy = oy * stride - g.paddingHeight.before + ky, ix = ox * stride - g.paddingWidth.before + kx
                    if iy >= 0, iy < shape.height, ix >= 0, ix < shape.width { values.append(realValue(input[(iy * shape.width + ix) * shape.channels + c], q)) }
                }}
                average.append(values.reduce(0, +) / Double(values.count))
                maximum.append(values.max()!)
            }}}
            var outA = [Int8](repeating: 0, count: outShape.elementCount), outM = outA
            input.withUnsafeBufferPointer { i in
                outA.withUnsafeMutableBufferPointer { Pooling.Quantized.average(params, input: i.baseAddress!, inputShape: shape, output: $0.baseAddress!, outputShape: outShape) }
                outM.withUnsafeMutableBufferPointer { Pooling.Quantized.maxPool(params, input: i.baseAddress!, inputShape: shape, output: $0.baseAddress!, outputShape: outShape) }
            }
            worstAverage = max(worstAverage, maxUnitError(outA, average, q))
            worstMax = max(worstMax, maxUnitError(outM, maximum, q))
        }
        #expect(worstAverage <= 1, "average pool max error \(worstAverage)")
        #expect(worstMax == 0, "max pool max error \(worstMax)")
    }

    // SOFTMAX (output scale 1/256, as TFLite requires): TFLite's softmax tests accept 1 unit.
    // LOGISTIC, TANH, GELU via lookup tables: 1 unit. HARD_SWISH: TFLite's test accepts about
    // 2 units (its fixed-point reluish path); bound 2 here. LEAKY_RELU: 1 unit.
    @Test func activationsAgreeWithFloat() {
        var rng = SplitMix64(seed: 50)
        var worst: [String: Int] = [:]
        for _ in 0..<differentialIterations {
            let iq = randomTestQuantization(Int8.self, using: &rng)
            let n = Int.random(in: 1...64, using: &rng)
            let input = randomStored(Int8.self, n, using: &rng)
            let x = input.map { realValue($0, iq) }
            func check(_ name: String, _ oq: AffineQuantization, _ f: (Double) -> Double, _ kernel: (UnsafePointer<Int8>, UnsafeMutablePointer<Int8>) -> Void) {
                var out = [Int8](repeating: 0, count: n)
                input.withUnsafeBufferPointer { i in out.withUnsafeMutableBufferPointer { kernel(i.baseAddress!, $0.baseAddress!) } }
                worst[name] = max(worst[name] ?? 0, maxUnitError(out, x.map(f), oq))
            }
            let sigmoidQ = AffineQuantization(scale: 1.0 / 256, zeroPoint: -128)
            let table = QuantizedLookupTable<Int8>.logistic(input: iq, output: sigmoidQ)
            check("LOGISTIC", sigmoidQ, { 1 / (1 + Foundation.exp(-$0)) }) { Activations.Quantized.lookup(table, input: $0, output: $1, count: n) }
            let tanhQ = AffineQuantization(scale: 1.0 / 128, zeroPoint: 0)
            let tanhTable = QuantizedLookupTable<Int8>.tanh(input: iq, output: tanhQ)
            check("TANH", tanhQ, { Foundation.tanh($0) }) { Activations.Quantized.lookup(tanhTable, input: $0, output: $1, count: n) }
            let geluQ = testOutputQuantization(Int8.self, for: x.map { 0.5 * $0 * (1 + Foundation.erf($0 / 2.0.squareRoot())) })
            let geluTable = QuantizedLookupTable<Int8>.gelu(input: iq, output: geluQ, approximate: false)
            check("GELU", geluQ, { 0.5 * $0 * (1 + Foundation.erf($0 / 2.0.squareRoot())) }) { Activations.Quantized.lookup(geluTable, input: $0, output: $1, count: n) }
            let hs: (Double) -> Double = { $0 * min(max($0 + 3, 0), 6) / 6 }
            let hsQ = testOutputQuantization(Int8.self, for: x.map(hs) + [-0.375])
            let hsParams = QuantizedHardSwishParams.make(input: iq, output: hsQ)!
            check("HARD_SWISH", hsQ, hs) { Activations.Quantized.hardSwish(hsParams, input: $0, output: $1, count: n) }
            let alpha = Float.random(in: 0.05...0.5, using: &rng)
            let lr: (Double) -> Double = { $0 > 0 ? $0 : $0 * Double(alpha) }
            let lrQ = testOutputQuantization(Int8.self, for: x.map(lr))
            let lrParams = QuantizedReluParams.leakyRelu(alpha: alpha, input: iq, output: lrQ, qmin: -128, qmax: 127)
            check("LEAKY_RELU", lrQ, lr) { Activations.Quantized.leakyRelu(lrParams, input: $0, output: $1, count: n) }
            let softQ = AffineQuantization(scale: 1.0 / 256, zeroPoint: -128)
            let softParams = QuantizedSoftmaxParams(inputScale: iq.scale, beta: 1, output: softQ)
            let m = x.max()!
            let e = x.map { Foundation.exp($0 - m) }
            let sum = e.reduce(0, +)
            check("SOFTMAX", softQ, { Foundation.exp($0 - m) / sum }) { Softmax.Quantized.reference(softParams, input: $0, output: $1, rows: 1, depth: n) }
        }
        for (name, w) in worst.sorted(by: { $0.key < $1.key }) {
            #expect(w <= (name == "HARD_SWISH" ? 2 : 1), "\(name): max error \(w) units")
        }
    }

    // MEAN and SUM over random axes: 1 unit.
    @Test func meanAndSumAgreeWithFloat() {
        var rng = SplitMix64(seed: 60)
        var worst = 0
        for _ in 0..<differentialIterations {
            let shape = (0..<Int.random(in: 1...4, using: &rng)).map { _ in Int.random(in: 1...5, using: &rng) }
            let mask = shape.map { _ in Bool.random(using: &rng) }
            let iq = randomTestQuantization(Int8.self, using: &rng)
            let input = randomStored(Int8.self, shape.reduce(1, *), using: &rng)
            let outCount = zip(shape, mask).reduce(1) { $1.1 ? $0 : $0 * $1.0 }
            let count = input.count / outCount
            var sums = [Double](repeating: 0, count: outCount)
            for i in 0..<input.count { sums[reducedIndex(i, shape: shape, reduced: mask)] += realValue(input[i], iq) }
            for computeSum in [false, true] {
                let expected = computeSum ? sums : sums.map { $0 / Double(count) }
                let oq = testOutputQuantization(Int8.self, for: expected)
                var out = [Int8](repeating: 0, count: outCount)
                let sums = TestBuffer(repeating: Int32(0), count: outCount)
                input.withUnsafeBufferPointer { i in out.withUnsafeMutableBufferPointer {
                    Reduce.Quantized.meanOrSum(QuantizedMeanSumParams(input: iq, output: oq), computeSum: computeSum, input: i.baseAddress!,
                                               inputShape: shape, reduced: mask, output: $0.baseAddress!, outputCount: outCount, sums: sums.pointer)
                }}
                worst = max(worst, maxUnitError(out, expected, oq))
            }
        }
        #expect(worst <= 1, "max error \(worst) units")
    }

    // QUANTIZE int8 <-> uint8 and rescaling requantisation: 1 unit.
    @Test func requantizeAgreesWithFloat() {
        var rng = SplitMix64(seed: 70)
        var worst = 0
        for _ in 0..<differentialIterations {
            let iq = randomTestQuantization(Int8.self, using: &rng)
            let oq = randomTestQuantization(UInt8.self, using: &rng)
            let input = randomStored(Int8.self, 50, using: &rng)
            var out = [UInt8](repeating: 0, count: 50)
            input.withUnsafeBufferPointer { i in out.withUnsafeMutableBufferPointer {
                Quantize.Quantized.requantize(input: i.baseAddress!, inputZeroPoint: iq.zeroPoint, output: $0.baseAddress!, outputZeroPoint: oq.zeroPoint,
                                              multiplier: QuantizedMultiplier(Double(iq.scale) / Double(oq.scale)), count: 50)
            }}
            worst = max(worst, maxUnitError(out, input.map { realValue($0, iq) }, oq))
        }
        #expect(worst <= 1, "max error \(worst) units")
    }

    // CONCATENATION with differing input scales: 1 unit.
    @Test func concatenationAgreesWithFloat() {
        var rng = SplitMix64(seed: 80)
        var worst = 0
        for _ in 0..<differentialIterations {
            let outer = Int.random(in: 1...3, using: &rng), inner = Int.random(in: 1...4, using: &rng)
            let sizes = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Int.random(in: 1...3, using: &rng) }
            let qs = sizes.map { _ in randomTestQuantization(UInt8.self, using: &rng) }
            let inputs = sizes.map { randomStored(UInt8.self, outer * $0 * inner, using: &rng) }
            var expected = [Double]()
            for o in 0..<outer { for (k, size) in sizes.enumerated() { for j in 0..<(size * inner) {
                expected.append(realValue(inputs[k][o * size * inner + j], qs[k]))
            }}}
            let oq = testOutputQuantization(UInt8.self, for: expected)
            var out = [UInt8](repeating: 0, count: expected.count)
            let pointers = inputs.map { a in a.withUnsafeBufferPointer { UnsafePointer<UInt8>($0.baseAddress!) } }
            withExtendedLifetime(inputs) {
                out.withUnsafeMutableBufferPointer { o in
                    pointers.withUnsafeBufferPointer {
                        Concatenation.Quantized.reference(inputs: $0, quantizations: qs, axisSizes: sizes, outerCount: outer, innerCount: inner,
                                                          output: o.baseAddress!, outputQuantization: oq)
                    }
                }
            }
            worst = max(worst, maxUnitError(out, expected, oq))
        }
        #expect(worst <= 1, "max error \(worst) units")
    }

    // RESIZE_BILINEAR int8 (the interpolation in stored units, same quantisation): 1 unit.
    @Test func resizeBilinearAgreesWithFloat() {
        var rng = SplitMix64(seed: 90)
        var worst = 0
        for _ in 0..<differentialIterations {
            let inShape = NHWC(batch: 1, height: Int.random(in: 1...6, using: &rng), width: Int.random(in: 1...6, using: &rng), channels: 2)
            let outShape = NHWC(batch: 1, height: Int.random(in: 1...12, using: &rng), width: Int.random(in: 1...12, using: &rng), channels: 2)
            let halfPixel = Bool.random(using: &rng)
            let options = ResizeOptions(alignCorners: !halfPixel && Bool.random(using: &rng), halfPixelCenters: halfPixel)
            let input = randomStored(Int8.self, inShape.elementCount, using: &rng)
            func src(_ i: Int, _ inSize: Int, _ outSize: Int) -> Double {
                let scale = options.alignCorners && outSize > 1 ? Double(inSize - 1) / Double(outSize - 1) : Double(inSize) / Double(outSize)
                return options.halfPixelCenters ? (Double(i) + 0.5) * scale - 0.5 : Double(i) * scale
            }
            var expected = [Double]()
            for y in 0..<outShape.height { for x in 0..<outShape.width { for c in 0..<2 {
                let sy = src(y, inShape.height, outShape.height), sx = src(x, inShape.width, outShape.width)
                let y0 = max(Int(sy.rounded(.down)), 0), x0 = max(Int(sx.rounded(.down)), 0)
                let y1 = min(Int(sy.rounded(.up)), inShape.height - 1), x1 = min(Int(sx.rounded(.up)), inShape.width - 1)
                let (dy, dx) = (sy - Double(y0), sx - Double(x0))
                func at(_ yy: Int, _ xx: Int) -> Double { Double(input[(yy * inShape.width + xx) * 2 + c]) }
                expected.append(at(y0, x0) * (1 - dy) * (1 - dx) + at(y1, x0) * dy * (1 - dx) + at(y0, x1) * (1 - dy) * dx + at(y1, x1) * dy * dx)
            }}}
            var out = [Int8](repeating: 0, count: outShape.elementCount)
            input.withUnsafeBufferPointer { i in out.withUnsafeMutableBufferPointer {
                Resize.Quantized.bilinear(options, input: i.baseAddress!, inputShape: inShape, output: $0.baseAddress!, outputShape: outShape)
            }}
            worst = max(worst, maxUnitError(out, expected, AffineQuantization(scale: 1, zeroPoint: 0)))
        }
        #expect(worst <= 1, "max error \(worst) units")
    }
}

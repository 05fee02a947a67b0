/// Pillow's resampling kernels (`libImaging/Resample.c`): per output pixel, a window of
/// input pixels and fixed-point weights.
struct PillowResampleAxis {
    /// Bits of the fixed-point weights (Pillow's `PRECISION_BITS` for 8-bit images).
    static let precisionBits = 22

    /// First input index of each output's window.
    let first: [Int]
    /// Window length of each output.
    let length: [Int]
    /// `kernelSize` weights per output (trailing ones zero).
    let weights: [Int]
    let kernelSize: Int

    /// Weights of the triangle (bilinear) filter, support 1, widened by the downscale factor.
    init(inSize: Int, outSize: Int) {
        let scale = Double(inSize) / Double(outSize)
        let filterScale = max(scale, 1.0)
        let support = 1.0 * filterScale
        kernelSize = Int(support.rounded(.up)) * 2 + 1
        var first = [Int](), length = [Int]()
        var weights = [Int](repeating: 0, count: outSize * kernelSize)
        for o in 0..<outSize {
            let centre = (Double(o) + 0.5) * scale
            // Truncation toward zero, as the C casts do, then clamping to the image.
            let lo = max(Int(centre - support + 0.5), 0)
            let hi = min(Int(centre + support + 0.5), inSize)
            let n = max(hi - lo, 0)
            var k = [Double](repeating: 0, count: n)
            var total = 0.0
            // Multiplying by the reciprocal (not dividing) keeps Pillow's exact rounding.
            let inverseScale = 1.0 / filterScale
            for i in 0..<n {
                let t = abs((Double(i + lo) - centre + 0.5) * inverseScale)
                k[i] = t < 1.0 ? 1.0 - t : 0.0
                total += k[i]
            }
            for i in 0..<n {
                let w = total != 0 ? k[i] / total : k[i]
                let scaled = w * Double(1 << Self.precisionBits)
                weights[o * kernelSize + i] = Int(w < 0 ? scaled - 0.5 : scaled + 0.5)
            }
            first.append(lo)
            length.append(n)
        }
        self.first = first
        self.length = length
        self.weights = weights
    }
}

extension Image {
    func pillowBilinear(_ s: [Int], _ outW: Int, _ outH: Int, _ maxValue: Int) -> [Int] {
        let c = channels
        var current = s
        var curW = width
        let curH = height
        let half = 1 << (PillowResampleAxis.precisionBits - 1)
        @inline(__always) func clip(_ v: Int) -> Int {
            v <= 0 ? 0 : min(v >> PillowResampleAxis.precisionBits, maxValue)
        }
        // Horizontal pass first, as Pillow does; each pass is skipped when its size is unchanged.
        if outW != width {
            let axis = PillowResampleAxis(inSize: width, outSize: outW)
            var out = [Int](repeating: 0, count: outW * curH * c)
            for y in 0..<curH {
                for x in 0..<outW {
                    let lo = axis.first[x], n = axis.length[x], kb = x * axis.kernelSize
                    for k in 0..<c {
                        var acc = half
                        for i in 0..<n { acc += current[(y * curW + lo + i) * c + k] * axis.weights[kb + i] }
                        out[(y * outW + x) * c + k] = clip(acc)
                    }
                }
            }
            current = out
            curW = outW
        }
        if outH != height {
            let axis = PillowResampleAxis(inSize: height, outSize: outH)
            var out = [Int](repeating: 0, count: curW * outH * c)
            for y in 0..<outH {
                let lo = axis.first[y], n = axis.length[y], kb = y * axis.kernelSize
                for x in 0..<curW {
                    for k in 0..<c {
                        var acc = half
                        for i in 0..<n { acc += current[((lo + i) * curW + x) * c + k] * axis.weights[kb + i] }
                        out[(y * curW + x) * c + k] = clip(acc)
                    }
                }
            }
            current = out
        }
        return current
    }
}

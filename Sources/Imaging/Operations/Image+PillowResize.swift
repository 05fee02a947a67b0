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
    func pillowBilinear<T: FixedWidthInteger & UnsignedInteger>(_ s: [T], _ outW: Int, _ outH: Int) -> [T] {
        let maxValue = Int(T.max)
        // Pillow 13 resamples horizontally first, except when the height shrinks while the
        // width grows; then the vertical pass runs first. The order changes the 8-bit rounding
        // of the intermediate image, so it is reproduced (and covered by the fixtures).
        if outH < height && outW > width {
            let tall = pillowPass(s, width, height, outW: width, outH: outH, maxValue)
            return pillowPass(tall, width, outH, outW: outW, outH: outH, maxValue)
        }
        let wide = pillowPass(s, width, height, outW: outW, outH: height, maxValue)
        return pillowPass(wide, outW, height, outW: outW, outH: outH, maxValue)
    }

    /// One separable pass: changes either the width or the height (or neither).
    private func pillowPass<T: FixedWidthInteger & UnsignedInteger>(_ s: [T], _ inW: Int, _ inH: Int, outW: Int, outH: Int,
                                                                    _ maxValue: Int) -> [T] {
        if inW == outW && inH == outH { return s }
        let c = channels
        let half = 1 << (PillowResampleAxis.precisionBits - 1)
        let horizontal = inW != outW
        let axis = horizontal ? PillowResampleAxis(inSize: inW, outSize: outW) : PillowResampleAxis(inSize: inH, outSize: outH)
        var out = [T](repeating: 0, count: outW * outH * c)
        // Neighbouring taps are one pixel apart along the resampled axis.
        let tapStride = horizontal ? c : inW * c
        s.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                axis.weights.withUnsafeBufferPointer { weights in
                    for y in 0..<outH {
                        for x in 0..<outW {
                            let o = horizontal ? x : y
                            let lo = axis.first[o], n = axis.length[o], kb = o * axis.kernelSize
                            let base = horizontal ? (y * inW + lo) * c : (lo * inW + x) * c
                            for k in 0..<c {
                                var acc = half
                                var p = base + k
                                for i in 0..<n {
                                    acc &+= Int(src[p]) &* weights[kb + i]
                                    p += tapStride
                                }
                                dst[(y * outW + x) * c + k] = T(truncatingIfNeeded: acc <= 0 ? 0 : min(acc >> PillowResampleAxis.precisionBits, maxValue))
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}

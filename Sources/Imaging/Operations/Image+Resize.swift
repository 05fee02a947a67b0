extension Image {
    /// The image scaled to `width` x `height` pixels; see `ResizeMethod` for the pixel-centre
    /// convention and what each method computes.
    public func resized(width outWidth: Int, height outHeight: Int, method: ResizeMethod = .bilinear) throws(ImageError) -> Image {
        guard outWidth > 0, outHeight > 0 else { throw .invalidArgument("resize target \(outWidth)x\(outHeight) must be positive") }
        let (pixels, o1) = outWidth.multipliedReportingOverflow(by: outHeight)
        let (count, o2) = pixels.multipliedReportingOverflow(by: channels)
        guard !o1, !o2, count <= DecodeLimits.default.maxBytes else {
            throw .invalidArgument("resize target \(outWidth)x\(outHeight) is too large")
        }
        func resample<T: FixedWidthInteger & UnsignedInteger>(_ s: [T]) -> [T] {
            switch method {
            case .nearest: return nearest(s, outWidth, outHeight)
            case .bilinear: return bilinear(s, outWidth, outHeight)
            case .pillowBilinear: return pillowBilinear(s, outWidth, outHeight)
            }
        }
        return Image(uncheckedWidth: outWidth, height: outHeight, pixelLayout: pixelLayout, samples: samples.map(resample, resample))
    }

    private func nearest<T: FixedWidthInteger & UnsignedInteger>(_ s: [T], _ outW: Int, _ outH: Int) -> [T] {
        let c = channels
        let sx = (0..<outW).map { min(Int((Double($0) + 0.5) * Double(width) / Double(outW)), width - 1) }
        let sy = (0..<outH).map { min(Int((Double($0) + 0.5) * Double(height) / Double(outH)), height - 1) }
        var out = [T](repeating: 0, count: outW * outH * c)
        for y in 0..<outH {
            for x in 0..<outW {
                let from = (sy[y] * width + sx[x]) * c, to = (y * outW + x) * c
                for k in 0..<c { out[to + k] = s[from + k] }
            }
        }
        return out
    }

    /// For each output index: the two input indices and the weight of the second.
    private static func linearTaps(_ inSize: Int, _ outSize: Int) -> [(Int, Int, Double)] {
        let scale = Double(inSize) / Double(outSize)
        return (0..<outSize).map { o in
            let centre = max(0, (Double(o) + 0.5) * scale - 0.5)
            let i0 = min(Int(centre), inSize - 1)
            return (i0, min(i0 + 1, inSize - 1), centre - Double(i0))
        }
    }

    private func bilinear<T: FixedWidthInteger & UnsignedInteger>(_ s: [T], _ outW: Int, _ outH: Int) -> [T] {
        let c = channels
        let xs = Self.linearTaps(width, outW), ys = Self.linearTaps(height, outH)
        var out = [T](repeating: 0, count: outW * outH * c)
        for y in 0..<outH {
            let (y0, y1, fy) = ys[y]
            for x in 0..<outW {
                let (x0, x1, fx) = xs[x]
                for k in 0..<c {
                    let p00 = Double(s[(y0 * width + x0) * c + k]), p01 = Double(s[(y0 * width + x1) * c + k])
                    let p10 = Double(s[(y1 * width + x0) * c + k]), p11 = Double(s[(y1 * width + x1) * c + k])
                    let top = p00 + (p01 - p00) * fx
                    let bottom = p10 + (p11 - p10) * fx
                    // A convex combination of samples: already within the sample range.
                    out[(y * outW + x) * c + k] = T((top + (bottom - top) * fy).rounded())
                }
            }
        }
        return out
    }
}

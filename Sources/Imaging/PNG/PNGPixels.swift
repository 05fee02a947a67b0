/// Turns a PNG's decompressed, filtered scanlines into image samples.
enum PNGPixels {
    static func reconstruct(header h: PNGHeader, compressed: [UInt8], palette: [UInt8], paletteAlpha: [UInt8]?,
                            limits: DecodeLimits) throws(ImageError) -> Image {
        let passes = h.interlaced ? Adam7Pass.passes : [Adam7Pass.whole]
        var expected = 0
        for pass in passes {
            let (w, ph) = pass.size(width: h.width, height: h.height)
            guard w > 0, ph > 0 else { continue }
            let (rows, o) = (h.rowBytes(w) + 1).multipliedReportingOverflow(by: ph)
            guard !o else { throw .limitExceeded("PNG \(h.width)x\(h.height) scanlines overflow") }
            expected += rows
        }
        try limits.checkBytes(expected, "PNG \(h.width)x\(h.height) scanlines")

        let layout: PixelLayout
        switch h.colorType {
        case .gray: layout = .gray
        case .grayAlpha: layout = .grayAlpha
        case .rgb: layout = .rgb
        case .rgba: layout = .rgba
        case .palette: layout = paletteAlpha == nil ? .rgb : .rgba
        }
        let sampleCount = try limits.checkImage(width: h.width, height: h.height, channels: layout.channels,
                                                bytesPerSample: 1, format: .png)

        var raw = try Inflate.zlib(compressed, maxOutput: expected)
        guard raw.count == expected else {
            throw .truncated(.png, "image data inflates to \(raw.count) bytes, a \(h.width)x\(h.height) image needs \(expected)")
        }

        var out8 = h.bitDepth == 16 ? [] : [UInt8](repeating: 0, count: sampleCount)
        var out16 = h.bitDepth == 16 ? [UInt16](repeating: 0, count: sampleCount) : []
        let zeros = [UInt8](repeating: 0, count: h.rowBytes(h.width) + 1)
        let paletteCount = palette.count / 3
        let alpha = paletteAlpha ?? []
        var badIndex: Int?

        var failure: ImageError?
        raw.withUnsafeMutableBufferPointer { rawBuffer in
            out8.withUnsafeMutableBufferPointer { o8 in
                out16.withUnsafeMutableBufferPointer { o16 in
                    zeros.withUnsafeBufferPointer { zero in
                        let base = rawBuffer.baseAddress!
                        var offset = 0
                        for (passIndex, pass) in passes.enumerated() {
                            let (w, ph) = pass.size(width: h.width, height: h.height)
                            guard w > 0, ph > 0 else { continue }
                            let rowBytes = h.rowBytes(w)
                            var previous = zero.baseAddress!
                            for j in 0..<ph {
                                guard let filter = PNGFilter(rawValue: base[offset]) else {
                                    failure = .malformed(.png, "row \(j)\(h.interlaced ? " of Adam7 pass \(passIndex + 1)" : "") has filter type \(base[offset]), expected 0...4")
                                    return
                                }
                                let row = base + offset + 1
                                PNGFilter.unfilter(filter, row: row, previous: previous, count: rowBytes, stride: h.filterStride)
                                let y = pass.yStart + j * pass.yStep
                                emitRow(h, row: row, count: w, y: y, pass: pass, o8: o8, o16: o16,
                                        palette: palette, paletteCount: paletteCount, alpha: alpha, badIndex: &badIndex)
                                if let bad = badIndex {
                                    failure = .malformed(.png, "palette index \(bad) at row \(y) is past the \(paletteCount)-colour palette")
                                    return
                                }
                                previous = UnsafePointer(row)
                                offset += rowBytes + 1
                            }
                        }
                    }
                }
            }
        }
        if let failure { throw failure }
        if h.bitDepth == 16 {
            return Image(uncheckedWidth: h.width, height: h.height, pixelLayout: layout, samples: .uInt16(out16))
        }
        return Image(uncheckedWidth: h.width, height: h.height, pixelLayout: layout, samples: .uInt8(out8))
    }

    /// Writes one reconstructed row of a pass into the output image.
    private static func emitRow(_ h: PNGHeader, row: UnsafeMutablePointer<UInt8>, count w: Int, y: Int, pass: Adam7Pass,
                                o8: UnsafeMutableBufferPointer<UInt8>, o16: UnsafeMutableBufferPointer<UInt16>,
                                palette: [UInt8], paletteCount: Int, alpha: [UInt8], badIndex: inout Int?) {
        let channels = h.colorType.storedChannels
        let width = h.width
        if h.bitDepth == 16 {
            for i in 0..<w {
                let dst = (y * width + pass.xStart + i * pass.xStep) * channels
                for c in 0..<channels {
                    let s = (i * channels + c) * 2
                    o16[dst + c] = UInt16(row[s]) << 8 | UInt16(row[s + 1])
                }
            }
            return
        }
        if h.colorType == .palette {
            let outChannels = alpha.isEmpty ? 3 : 4
            for i in 0..<w {
                let index = sample(row, i, h.bitDepth)
                guard index < paletteCount else { badIndex = index; return }
                let dst = (y * width + pass.xStart + i * pass.xStep) * outChannels
                o8[dst] = palette[index * 3]
                o8[dst + 1] = palette[index * 3 + 1]
                o8[dst + 2] = palette[index * 3 + 2]
                if outChannels == 4 { o8[dst + 3] = index < alpha.count ? alpha[index] : 255 }
            }
            return
        }
        if h.bitDepth == 8 {
            if pass.xStep == 1 {
                let dst = y * width * channels
                for k in 0..<(w * channels) { o8[dst + k] = row[k] }
                return
            }
            for i in 0..<w {
                let dst = (y * width + pass.xStart + i * pass.xStep) * channels
                for c in 0..<channels { o8[dst + c] = row[i * channels + c] }
            }
            return
        }
        // Gray at 1, 2 or 4 bits: scale to 8 bits by replication (255 / (2^d - 1) is whole).
        let scale = 255 / ((1 << h.bitDepth) - 1)
        for i in 0..<w {
            o8[y * width + pass.xStart + i * pass.xStep] = UInt8(sample(row, i, h.bitDepth) * scale)
        }
    }

    /// The `i`-th sample of a packed row at 1, 2, 4 or 8 bits (most significant bits first).
    @inline(__always)
    private static func sample(_ row: UnsafeMutablePointer<UInt8>, _ i: Int, _ depth: Int) -> Int {
        if depth == 8 { return Int(row[i]) }
        let bit = i * depth
        let shift = 8 - depth - (bit & 7)
        return (Int(row[bit >> 3]) >> shift) & ((1 << depth) - 1)
    }
}

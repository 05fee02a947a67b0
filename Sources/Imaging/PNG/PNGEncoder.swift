/// Writes PNG files: gray, gray+alpha, RGB and RGBA at the image's bit depth (8 or 16),
/// optionally as a palette image (1, 2, 4 or 8 bits with tRNS) or as gray packed into
/// 1, 2 or 4 bits, with or without Adam7 interlacing. Each row gets the filter with the
/// smallest sum of absolute differences (the standard heuristic).
public enum PNGEncoder {
    /// The PNG colour representation to write.
    public enum ColorMode: Sendable, Equatable {
        /// The image's own layout and bit depth (colour type 0, 2, 4 or 6).
        case automatic
        /// An indexed image (colour type 3) at the smallest bit depth that holds the
        /// image's distinct colours, with a tRNS chunk when any alpha is below 255.
        /// The image must be 8-bit and have at most 256 distinct pixel values.
        case palette
        /// Gray packed at `bitDepth` 1, 2 or 4 bits. The image must be 8-bit gray with every
        /// value a multiple of `255 / (2^bitDepth - 1)`, so decoding restores it exactly.
        case packedGray(bitDepth: Int)
    }

    /// Encodes `image` as a PNG file.
    public static func encode(_ image: Image, mode: ColorMode = .automatic, interlaced: Bool = false) throws(ImageError) -> [UInt8] {
        var out = PNGDecoder.signature
        let (colorType, bitDepth, rows, palette, alpha) = try scanlineSource(image, mode: mode)
        var ihdr: [UInt8] = []
        ihdr += bigEndian(UInt32(image.width))
        ihdr += bigEndian(UInt32(image.height))
        ihdr += [UInt8(bitDepth), colorType, 0, 0, interlaced ? 1 : 0]
        appendChunk("IHDR", ihdr, to: &out)
        if let palette { appendChunk("PLTE", palette, to: &out) }
        if let alpha { appendChunk("tRNS", alpha, to: &out) }
        let bitsPerPixel = bitDepth * rows.samplesPerPixel
        let filtered = filterScanlines(width: image.width, height: image.height, bitsPerPixel: bitsPerPixel,
                                       interlaced: interlaced, packedRow: rows.packedRow)
        appendChunk("IDAT", Deflate.zlib(filtered), to: &out)
        appendChunk("IEND", [], to: &out)
        return out
    }

    /// What goes into the scanlines: per-pixel sample values at the PNG bit depth.
    private struct RowSource {
        let samplesPerPixel: Int
        /// Packs the samples of pixels `xs` of row `y` (MSB-first for sub-byte depths).
        let packedRow: (_ y: Int, _ xs: StrideTo<Int>) -> [UInt8]
    }

    private static func scanlineSource(_ image: Image, mode: ColorMode) throws(ImageError)
        -> (UInt8, Int, RowSource, [UInt8]?, [UInt8]?) {
        let c = image.channels, w = image.width
        switch mode {
        case .automatic:
            let colorType: UInt8
            switch image.pixelLayout {
            case .gray: colorType = 0
            case .rgb: colorType = 2
            case .grayAlpha: colorType = 4
            case .rgba: colorType = 6
            }
            switch image.samples {
            case .uInt8(let s):
                return (colorType, 8, RowSource(samplesPerPixel: c) { y, xs in
                    var row: [UInt8] = []
                    for x in xs { row += s[((y * w + x) * c)..<((y * w + x) * c + c)] }
                    return row
                }, nil, nil)
            case .uInt16(let s):
                return (colorType, 16, RowSource(samplesPerPixel: c) { y, xs in
                    var row: [UInt8] = []
                    for x in xs {
                        for k in 0..<c {
                            let v = s[(y * w + x) * c + k]
                            row += [UInt8(v >> 8), UInt8(v & 0xFF)]
                        }
                    }
                    return row
                }, nil, nil)
            }
        case .palette:
            guard image.bitDepth == 8 else { throw .invalidArgument("palette PNG needs an 8-bit image") }
            var indexOf: [UInt32: Int] = [:]
            var entries: [UInt32] = []
            var indices = [UInt8](repeating: 0, count: w * image.height)
            let rgba = image.converted(to: .rgba).pixels8!
            for p in 0..<(w * image.height) {
                let key = UInt32(rgba[4 * p]) << 24 | UInt32(rgba[4 * p + 1]) << 16 | UInt32(rgba[4 * p + 2]) << 8 | UInt32(rgba[4 * p + 3])
                if let i = indexOf[key] {
                    indices[p] = UInt8(i)
                } else {
                    guard entries.count < 256 else { throw .invalidArgument("image has more than 256 colours; cannot write a palette PNG") }
                    indexOf[key] = entries.count
                    indices[p] = UInt8(entries.count)
                    entries.append(key)
                }
            }
            let depth = entries.count <= 2 ? 1 : entries.count <= 4 ? 2 : entries.count <= 16 ? 4 : 8
            let palette = entries.flatMap { [UInt8($0 >> 24), UInt8($0 >> 16 & 0xFF), UInt8($0 >> 8 & 0xFF)] }
            let alphas = entries.map { UInt8($0 & 0xFF) }
            // tRNS may stop after the last non-opaque entry.
            let lastTranslucent = alphas.lastIndex { $0 != 255 }
            let trns = lastTranslucent.map { Array(alphas[...$0]) }
            return (3, depth, RowSource(samplesPerPixel: 1) { y, xs in
                pack(xs.map { Int(indices[y * w + $0]) }, depth: depth)
            }, palette, trns)
        case .packedGray(let depth):
            guard [1, 2, 4].contains(depth) else { throw .invalidArgument("packed gray bit depth \(depth) is not 1, 2 or 4") }
            guard image.pixelLayout == .gray, let s = image.pixels8 else { throw .invalidArgument("packed gray PNG needs an 8-bit gray image") }
            let step = 255 / ((1 << depth) - 1)
            guard s.allSatisfy({ Int($0) % step == 0 }) else {
                throw .invalidArgument("gray values are not all multiples of \(step); \(depth)-bit gray would lose them")
            }
            return (0, depth, RowSource(samplesPerPixel: 1) { y, xs in
                pack(xs.map { Int(s[y * w + $0]) / step }, depth: depth)
            }, nil, nil)
        }
    }

    /// Packs values of `depth` bits MSB-first, padding the last byte with zeros.
    private static func pack(_ values: [Int], depth: Int) -> [UInt8] {
        if depth == 8 { return values.map { UInt8($0) } }
        var out = [UInt8](repeating: 0, count: (values.count * depth + 7) / 8)
        for (i, v) in values.enumerated() {
            let bit = i * depth
            out[bit >> 3] |= UInt8(v << (8 - depth - (bit & 7)))
        }
        return out
    }

    private static func filterScanlines(width: Int, height: Int, bitsPerPixel: Int, interlaced: Bool,
                                        packedRow: (Int, StrideTo<Int>) -> [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        let stride = max(1, bitsPerPixel / 8)
        for pass in interlaced ? Adam7Pass.passes : [Adam7Pass.whole] {
            let (pw, ph) = pass.size(width: width, height: height)
            guard pw > 0, ph > 0 else { continue }
            let rowBytes = (pw * bitsPerPixel + 7) / 8
            var previous = [UInt8](repeating: 0, count: rowBytes)
            var candidate = [UInt8](repeating: 0, count: rowBytes)
            for j in 0..<ph {
                let row = packedRow(pass.yStart + j * pass.yStep, Swift.stride(from: pass.xStart, to: width, by: pass.xStep))
                var best: (cost: Int, type: PNGFilter, bytes: [UInt8]) = (Int.max, .none, row)
                for type in PNGFilter.allCases {
                    row.withUnsafeBufferPointer { r in
                        previous.withUnsafeBufferPointer { p in
                            candidate.withUnsafeMutableBufferPointer { o in
                                PNGFilter.filter(type, row: r.baseAddress!, previous: p.baseAddress!, out: o.baseAddress!,
                                                 count: rowBytes, stride: stride)
                            }
                        }
                    }
                    // Bytes read as signed: small magnitudes compress best.
                    let cost = candidate.reduce(0) { $0 + abs(Int(Int8(bitPattern: $1))) }
                    if cost < best.cost { best = (cost, type, candidate) }
                }
                out.append(best.type.rawValue)
                out += best.bytes
                previous = row
            }
        }
        return out
    }

    private static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        out += bigEndian(UInt32(data.count))
        let body = Array(type.utf8) + data
        out += body
        out += bigEndian(CRC32.checksum(body))
    }
}

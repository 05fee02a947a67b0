/// Decodes JPEG files (ITU T.81 / JFIF): baseline and extended sequential and progressive
/// Huffman coding, 8-bit samples, grayscale or three-component YCbCr (or Adobe RGB) with
/// any integer sampling ratio (4:4:4, 4:2:2, 4:2:0...), restart intervals, and the EXIF
/// orientation tag.
///
/// Pixels match libjpeg's default output (accurate integer IDCT, "fancy" chroma
/// upsampling, fixed-point YCbCr conversion). Arithmetic coding, lossless, hierarchical,
/// 12-bit and CMYK files are reported as unsupported.
public enum JPEGDecoder {
    /// True when `bytes` start with the SOI marker followed by another marker.
    public static func matches(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    /// Decodes a JPEG, returning the stored pixels (orientation not applied) and the EXIF
    /// orientation (`.up` when there is none).
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default) throws(ImageError) -> (Image, Orientation) {
        guard matches(bytes) else { throw .malformed(.jpeg, "missing SOI marker") }
        let result: Result<(Image, Orientation), ImageError> = bytes.withUnsafeBufferPointer { data in
            var parser = JPEGParser(data: data, limits: limits)
            do throws(ImageError) {
                return .success(try parser.run())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// The marker-level state machine of one decode.
private struct JPEGParser {
    let data: UnsafeBufferPointer<UInt8>
    let limits: DecodeLimits
    var frame: JPEGFrame?
    var dcTables = [JPEGHuffmanTable?](repeating: nil, count: 4)
    var acTables = [JPEGHuffmanTable?](repeating: nil, count: 4)
    var quantTables = [[Int32]?](repeating: nil, count: 4)
    var restartInterval = 0
    var orientation: Orientation?
    var adobeTransform: Int?
    var scans = 0
    static let maxScans = 256

    init(data: UnsafeBufferPointer<UInt8>, limits: DecodeLimits) {
        self.data = data
        self.limits = limits
    }

    mutating func run() throws(ImageError) -> (Image, Orientation) {
        var pos = 2
        while true {
            // Markers may be preceded by fill bytes 0xFF; stray bytes are skipped as libjpeg does.
            while pos < data.count && !(data[pos] == 0xFF && pos + 1 < data.count && data[pos + 1] != 0xFF && data[pos + 1] != 0) {
                pos += 1
            }
            guard pos + 1 < data.count else { throw .truncated(.jpeg, "file ends at byte \(data.count) before the EOI marker") }
            let marker = data[pos + 1]
            let markerAt = pos
            pos += 2
            switch marker {
            case 0xD9:
                guard frame != nil, scans > 0 else { throw .malformed(.jpeg, "EOI at byte \(markerAt) before any scan") }
                return (try finish(), orientation ?? .up)
            case 0xD8:
                throw .malformed(.jpeg, "second SOI marker at byte \(markerAt)")
            case 0x01, 0xD0...0xD7:
                continue
            default:
                break
            }
            guard pos + 2 <= data.count else { throw .truncated(.jpeg, "file ends inside the length of marker 0x\(String(marker, radix: 16)) at byte \(markerAt)") }
            let length = Int(data[pos]) << 8 | Int(data[pos + 1])
            guard length >= 2 else { throw .malformed(.jpeg, "marker 0x\(String(marker, radix: 16)) at byte \(markerAt) has length \(length)") }
            guard length <= data.count - pos else {
                throw .truncated(.jpeg, "segment 0x\(String(marker, radix: 16)) at byte \(markerAt) declares \(length) bytes, \(data.count - pos) remain")
            }
            let body = ArraySlice(data[(pos + 2)..<(pos + length)])
            pos += length
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                guard frame == nil else { throw .malformed(.jpeg, "second SOF marker at byte \(markerAt)") }
                frame = try JPEGFrame(segment: body, progressive: marker == 0xC2, at: markerAt, limits: limits)
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                let kinds: [UInt8: String] = [0xC3: "lossless", 0xC9: "arithmetic-coded", 0xCA: "arithmetic-coded progressive", 0xCB: "arithmetic-coded lossless"]
                throw .unsupported(.jpeg, "\(kinds[marker] ?? "hierarchical") JPEG (SOF marker 0x\(String(marker, radix: 16)))")
            case 0xCC:
                throw .unsupported(.jpeg, "arithmetic coding conditioning (DAC) at byte \(markerAt)")
            case 0xC4:
                try defineHuffmanTables(body, at: markerAt)
            case 0xDB:
                try defineQuantTables(body, at: markerAt)
            case 0xDD:
                guard body.count == 2 else { throw .malformed(.jpeg, "DRI segment at byte \(markerAt) is \(body.count) bytes, expected 2") }
                restartInterval = Int(body[body.startIndex]) << 8 | Int(body[body.startIndex + 1])
            case 0xDA:
                // Each scan walks the whole image, so a flood of tiny scans would take
                // quadratic time; real progressive files use about ten.
                guard scans < JPEGParser.maxScans else {
                    throw .limitExceeded("JPEG has more than \(JPEGParser.maxScans) scans")
                }
                pos = try decodeScan(body, dataStart: pos, at: markerAt)
            case 0xE1:
                if orientation == nil { orientation = EXIFOrientation.parse(body) }
            case 0xEE:
                if body.count >= 12, body.prefix(5).elementsEqual([0x41, 0x64, 0x6F, 0x62, 0x65]) {
                    adobeTransform = Int(body[body.startIndex + 11])
                }
            default:
                break
            }
        }
    }

    private mutating func defineHuffmanTables(_ d: ArraySlice<UInt8>, at offset: Int) throws(ImageError) {
        var p = d.startIndex
        while p < d.endIndex {
            guard d.endIndex - p >= 17 else { throw .truncated(.jpeg, "DHT segment at byte \(offset) ends inside a table header") }
            let tc = Int(d[p] >> 4), th = Int(d[p] & 15)
            guard tc <= 1, th <= 3 else { throw .malformed(.jpeg, "DHT at byte \(offset) defines table class \(tc) id \(th)") }
            let counts = (1...16).map { Int(d[p + $0]) }
            let total = counts.reduce(0, +)
            guard total <= 256 else { throw .malformed(.jpeg, "DHT at byte \(offset) declares \(total) codes, over 256") }
            guard d.endIndex - p - 17 >= total else { throw .truncated(.jpeg, "DHT segment at byte \(offset) ends inside its symbol list") }
            let values = Array(d[(p + 17)..<(p + 17 + total)])
            let table = try JPEGHuffmanTable(counts: counts, values: values, at: offset)
            if tc == 0 { dcTables[th] = table } else { acTables[th] = table }
            p += 17 + total
        }
    }

    private mutating func defineQuantTables(_ d: ArraySlice<UInt8>, at offset: Int) throws(ImageError) {
        var p = d.startIndex
        while p < d.endIndex {
            let precision = Int(d[p] >> 4), id = Int(d[p] & 15)
            guard precision <= 1, id <= 3 else { throw .malformed(.jpeg, "DQT at byte \(offset) defines table \(id) with precision \(precision)") }
            let size = precision == 0 ? 64 : 128
            guard d.endIndex - p - 1 >= size else { throw .truncated(.jpeg, "DQT segment at byte \(offset) ends inside table \(id)") }
            var table = [Int32](repeating: 0, count: 64)
            for k in 0..<64 {
                let v = precision == 0 ? Int32(d[p + 1 + k]) : Int32(d[p + 1 + 2 * k]) << 8 | Int32(d[p + 2 + 2 * k])
                table[JPEGEntropyDecoder.naturalOrder[k]] = v
            }
            quantTables[id] = table
            p += 1 + size
        }
    }

    /// Decodes one scan whose entropy-coded data starts at `dataStart`; returns the
    /// position of the marker that follows it.
    private mutating func decodeScan(_ body: ArraySlice<UInt8>, dataStart: Int, at offset: Int) throws(ImageError) -> Int {
        guard var f = frame else { throw .malformed(.jpeg, "SOS at byte \(offset) comes before any SOF marker") }
        let scan = try JPEGScan(segment: body, frame: f, at: offset)
        for c in scan.components where f.components[c.index].quantTable == nil {
            let tq = f.components[c.index].quantTableIndex
            guard let table = quantTables[tq] else {
                throw .malformed(.jpeg, "component \(f.components[c.index].id) uses quantisation table \(tq), not defined before its first scan")
            }
            f.components[c.index].quantTable = table
        }
        var reader = JPEGBitReader(data: data, position: dataStart)
        var decoder = JPEGEntropyDecoder(scan: scan, dcTables: dcTables, acTables: acTables, restartInterval: restartInterval)
        try decoder.decode(frame: &f, reader: &reader, progressive: f.progressive)
        frame = f
        scans += 1
        guard reader.nextMarker() != nil else { throw .truncated(.jpeg, "file ends after scan \(scans), before the EOI marker") }
        return reader.position
    }

    /// Inverse-transforms every component and converts to gray or RGB.
    private func finish() throws(ImageError) -> Image {
        let f = frame!
        var planes: [[UInt8]] = []
        for c in f.components {
            guard let quant = c.quantTable else { throw .malformed(.jpeg, "component \(c.id) appears in no scan") }
            let stride = c.usedBlocksPerLine * 8
            var plane = [UInt8](repeating: 0, count: stride * c.usedBlockRows * 8)
            plane.withUnsafeMutableBufferPointer { out in
                quant.withUnsafeBufferPointer { q in
                    for by in 0..<c.usedBlockRows {
                        for bx in 0..<c.usedBlocksPerLine {
                            JPEGIDCT.transform(c.coefficients.pointer + (by * c.blocksPerLine + bx) * 64, quant: q.baseAddress!,
                                               out: out.baseAddress! + by * 8 * stride + bx * 8, stride: stride)
                        }
                    }
                }
            }
            guard f.maxH % c.h == 0, f.maxV % c.v == 0 else {
                throw .unsupported(.jpeg, "component \(c.id) sampling \(c.h)x\(c.v) is not an integer fraction of \(f.maxH)x\(f.maxV)")
            }
            planes.append(JPEGUpsampling.upsample(plane, width: c.width, height: c.height, stride: stride,
                                                  fx: f.maxH / c.h, fy: f.maxV / c.v, outWidth: f.width, outHeight: f.height))
        }
        if planes.count == 1 {
            return Image(uncheckedWidth: f.width, height: f.height, pixelLayout: .gray, samples: .uInt8(planes[0]))
        }
        let ids = f.components.map(\.id)
        let isRGB = adobeTransform == 0 || ids == [0x52, 0x47, 0x42]
        let rgb = JPEGColor.interleave(planes[0], planes[1], planes[2], count: f.width * f.height, isRGB: isRGB)
        return Image(uncheckedWidth: f.width, height: f.height, pixelLayout: .rgb, samples: .uInt8(rgb))
    }
}

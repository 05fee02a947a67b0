/// Decodes the Netpbm formats: P1/P4 (PBM, bitmap), P2/P5 (PGM, gray) and P3/P6 (PPM, RGB),
/// ASCII and binary, with `#` comments and maxval up to 65535.
///
/// Bitmaps give 8-bit gray with 0 for a set (black) bit and 255 for a clear one. Samples are
/// kept as stored when maxval is 255 or 65535; other maxvals are rescaled to the full 8-bit
/// (maxval < 256) or 16-bit range with rounding.
public enum PNMDecoder {
    /// True when `bytes` start with `P1` to `P6` followed by whitespace or a comment.
    public static func matches(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == UInt8(ascii: "P") && (49...54).contains(bytes[1])
            && (isSpace(bytes[2]) || bytes[2] == UInt8(ascii: "#"))
    }

    /// Decodes a PBM, PGM or PPM file.
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default) throws(ImageError) -> Image {
        guard matches(bytes) else { throw .malformed(.pnm, "missing P1-P6 magic number") }
        let kind = Int(bytes[1]) - 48
        var reader = PNMReader(bytes: bytes, position: 2)
        let width = try reader.number("width")
        let height = try reader.number("height")
        let isBitmap = kind == 1 || kind == 4
        let maxval = isBitmap ? 1 : try reader.number("maxval")
        guard (1...65_535).contains(maxval) else { throw .malformed(.pnm, "maxval \(maxval) is outside 1...65535") }
        let channels = (kind == 3 || kind == 6) ? 3 : 1
        let wide = maxval > 255
        let count = try limits.checkImage(width: width, height: height, channels: channels, bytesPerSample: wide ? 2 : 1, format: .pnm) / (wide ? 2 : 1)
        let layout: PixelLayout = channels == 3 ? .rgb : .gray
        // Every sample needs at least one byte of payload (eight per byte for P4): refuse a
        // header promising more samples than the file can hold before allocating for them.
        let minimumPayload = kind == 4 ? (width + 7) / 8 * height : count * (kind >= 5 && wide ? 2 : 1)
        guard minimumPayload <= bytes.count - reader.position else {
            throw .truncated(.pnm, "P\(kind) header at byte \(reader.position) promises \(width)x\(height) pixels, the file has \(bytes.count - reader.position) bytes of data")
        }

        var values = [UInt16](repeating: 0, count: count)
        switch kind {
        case 1:
            for i in 0..<count { values[i] = try reader.bit() }
        case 2, 3:
            for i in 0..<count {
                let v = try reader.number("sample \(i)")
                guard v <= maxval else { throw .malformed(.pnm, "sample \(i) is \(v), over maxval \(maxval)") }
                values[i] = UInt16(v)
            }
        case 4:
            try reader.singleWhitespace()
            let rowBytes = (width + 7) / 8
            guard rowBytes.multipliedReportingOverflow(by: height).partialValue <= bytes.count - reader.position else {
                throw .truncated(.pnm, "P4 needs \(rowBytes * height) data bytes after byte \(reader.position), file has \(bytes.count - reader.position)")
            }
            for y in 0..<height {
                let row = reader.position + y * rowBytes
                for x in 0..<width { values[y * width + x] = UInt16((bytes[row + (x >> 3)] >> (7 - UInt8(x & 7))) & 1) }
            }
        default:
            try reader.singleWhitespace()
            let sampleBytes = wide ? 2 : 1
            let needed = count * sampleBytes
            guard needed <= bytes.count - reader.position else {
                throw .truncated(.pnm, "P\(kind) needs \(needed) data bytes after byte \(reader.position), file has \(bytes.count - reader.position)")
            }
            let start = reader.position
            for i in 0..<count {
                let v = wide ? Int(bytes[start + 2 * i]) << 8 | Int(bytes[start + 2 * i + 1]) : Int(bytes[start + i])
                guard v <= maxval else { throw .malformed(.pnm, "sample \(i) is \(v), over maxval \(maxval)") }
                values[i] = UInt16(v)
            }
        }

        if isBitmap {
            // PBM: 1 is black.
            return Image(uncheckedWidth: width, height: height, pixelLayout: .gray, samples: .uInt8(values.map { $0 == 1 ? 0 : 255 }))
        }
        let full = wide ? 65_535 : 255
        if maxval != full {
            values = values.map { UInt16((Int($0) * full + maxval / 2) / maxval) }
        }
        if wide { return Image(uncheckedWidth: width, height: height, pixelLayout: layout, samples: .uInt16(values)) }
        return Image(uncheckedWidth: width, height: height, pixelLayout: layout, samples: .uInt8(values.map { UInt8($0) }))
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 32 || (9...13).contains(b) }
}

/// Token reader for PNM headers and ASCII payloads.
struct PNMReader {
    let bytes: [UInt8]
    var position: Int

    /// Skips whitespace and `#` comments (which run to the end of the line).
    mutating func skipSeparators() {
        while position < bytes.count {
            if PNMDecoder.isSpace(bytes[position]) {
                position += 1
            } else if bytes[position] == UInt8(ascii: "#") {
                while position < bytes.count && bytes[position] != 10 && bytes[position] != 13 { position += 1 }
            } else {
                return
            }
        }
    }

    /// Reads a decimal number of at most 9 digits.
    mutating func number(_ what: String) throws(ImageError) -> Int {
        skipSeparators()
        guard position < bytes.count else { throw .truncated(.pnm, "file ends before \(what)") }
        var value = 0, digits = 0
        while position < bytes.count, (48...57).contains(bytes[position]) {
            value = value * 10 + Int(bytes[position] - 48)
            digits += 1
            position += 1
            guard digits <= 9 else { throw .malformed(.pnm, "\(what) at byte \(position) has too many digits") }
        }
        guard digits > 0 else { throw .malformed(.pnm, "expected a number for \(what) at byte \(position)") }
        return value
    }

    /// Reads one P1 bit: `0` or `1`, separators optional.
    mutating func bit() throws(ImageError) -> UInt16 {
        skipSeparators()
        guard position < bytes.count else { throw .truncated(.pnm, "P1 data ends at byte \(position)") }
        let b = bytes[position]
        guard b == UInt8(ascii: "0") || b == UInt8(ascii: "1") else { throw .malformed(.pnm, "P1 byte \(position) is not 0 or 1") }
        position += 1
        return UInt16(b - 48)
    }

    /// Consumes the single whitespace byte that separates a binary header from its data.
    mutating func singleWhitespace() throws(ImageError) {
        guard position < bytes.count else { throw .truncated(.pnm, "file ends after the header") }
        guard PNMDecoder.isSpace(bytes[position]) else { throw .malformed(.pnm, "expected whitespace after the header at byte \(position)") }
        position += 1
    }
}

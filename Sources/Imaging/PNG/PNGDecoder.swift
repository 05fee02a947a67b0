/// Decodes PNG files (ISO/IEC 15948): every colour type and bit depth, palettes with
/// tRNS transparency, all five row filters, Adam7 interlacing and split IDAT data. Every
/// chunk CRC is checked; unknown ancillary chunks are skipped, unknown critical ones refused.
public enum PNGDecoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The 8-byte PNG file signature.
    public static var signatureBytes: [UInt8] { signature }

    /// True when `bytes` start with the PNG signature.
    public static func matches(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 8 && bytes[0..<8].elementsEqual(signature)
    }

    /// Decodes a PNG. Gray images of 1, 2 or 4 bits are scaled to 8 bits by bit replication;
    /// palette images are expanded to RGB, or RGBA when a tRNS chunk is present; 16-bit
    /// images keep 16-bit samples. A tRNS chunk on a gray or RGB image is not applied.
    public static func decode(_ bytes: [UInt8], limits: DecodeLimits = .default) throws(ImageError) -> Image {
        guard matches(bytes) else {
            if bytes.count < 8 && signature.starts(with: bytes) { throw .truncated(.png, "file ends inside the 8-byte signature") }
            throw .malformed(.png, "missing PNG signature")
        }
        var header: PNGHeader?
        var palette: [UInt8] = []
        var transparency: [UInt8]?
        var compressed: [UInt8] = []
        var sawIDAT = false, idatEnded = false, sawEnd = false
        var offset = 8
        while !sawEnd {
            guard bytes.count - offset >= 8 else {
                throw .truncated(.png, "file ends at byte \(bytes.count) before the IEND chunk")
            }
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let typeBytes = bytes[(offset + 4)..<(offset + 8)]
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard typeBytes.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }) else {
                throw .malformed(.png, "chunk at byte \(offset) has a non-letter type code")
            }
            guard length <= Int(Int32.max) else { throw .malformed(.png, "chunk \(type) at byte \(offset) declares length \(length) over 2^31-1") }
            guard bytes.count - offset - 12 >= length else {
                throw .truncated(.png, "chunk \(type) at byte \(offset) declares \(length) bytes, only \(max(0, bytes.count - offset - 12)) remain")
            }
            let dataStart = offset + 8
            let data = bytes[dataStart..<(dataStart + length)]
            let crcAt = dataStart + length
            let stored = UInt32(bytes[crcAt]) << 24 | UInt32(bytes[crcAt + 1]) << 16 | UInt32(bytes[crcAt + 2]) << 8 | UInt32(bytes[crcAt + 3])
            let actual = CRC32.checksum(bytes[(offset + 4)..<crcAt])
            guard stored == actual else {
                throw .checksumMismatch(.png, "chunk \(type) at byte \(offset): CRC is \(Inflate.hex(actual)), file says \(Inflate.hex(stored))")
            }
            if header == nil && type != "IHDR" { throw .malformed(.png, "first chunk is \(type), expected IHDR") }
            if sawIDAT && type != "IDAT" { idatEnded = true }
            switch type {
            case "IHDR":
                guard header == nil else { throw .malformed(.png, "second IHDR chunk at byte \(offset)") }
                let h = try PNGHeader(data)
                _ = try limits.checkImage(width: h.width, height: h.height, channels: 4, bytesPerSample: h.bitDepth == 16 ? 2 : 1, format: .png)
                header = h
            case "PLTE":
                guard !sawIDAT else { throw .malformed(.png, "PLTE chunk at byte \(offset) comes after IDAT") }
                guard length % 3 == 0, length >= 3, length <= 768 else { throw .malformed(.png, "PLTE length \(length) is not 3...768 and a multiple of 3") }
                palette = Array(data)
            case "tRNS":
                guard !sawIDAT else { throw .malformed(.png, "tRNS chunk at byte \(offset) comes after IDAT") }
                transparency = Array(data)
            case "IDAT":
                guard !idatEnded else { throw .malformed(.png, "IDAT chunk at byte \(offset) is not contiguous with the earlier IDAT chunks") }
                sawIDAT = true
                try limits.checkBytes(compressed.count + length, "PNG compressed data")
                compressed.append(contentsOf: data)
            case "IEND":
                sawEnd = true
            default:
                // Bit 5 of the first type byte clear means critical: we cannot skip it safely.
                guard typeBytes.first! & 0x20 != 0 else { throw .unsupported(.png, "unknown critical chunk \(type) at byte \(offset)") }
            }
            offset = crcAt + 4
        }
        guard let h = header else { throw .malformed(.png, "no IHDR chunk") }
        guard sawIDAT else { throw .malformed(.png, "no IDAT chunk") }
        if h.colorType == .palette {
            guard !palette.isEmpty else { throw .malformed(.png, "palette image has no PLTE chunk") }
            if let t = transparency, t.count > palette.count / 3 {
                throw .malformed(.png, "tRNS has \(t.count) entries for a \(palette.count / 3)-colour palette")
            }
        }
        return try PNGPixels.reconstruct(header: h, compressed: compressed, palette: palette,
                                         paletteAlpha: h.colorType == .palette ? transparency : nil, limits: limits)
    }
}

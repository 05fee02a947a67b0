/// The IHDR chunk of a PNG file, validated against the combinations the standard allows.
struct PNGHeader {
    /// PNG colour types (PNG spec 11.2.2).
    enum ColorType: UInt8 {
        case gray = 0, rgb = 2, palette = 3, grayAlpha = 4, rgba = 6

        /// Samples per pixel as stored in the file (a palette index is one sample).
        var storedChannels: Int {
            switch self {
            case .gray, .palette: return 1
            case .grayAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }

        var allowedDepths: [Int] {
            switch self {
            case .gray: return [1, 2, 4, 8, 16]
            case .palette: return [1, 2, 4, 8]
            case .rgb, .grayAlpha, .rgba: return [8, 16]
            }
        }
    }

    let width: Int
    let height: Int
    let bitDepth: Int
    let colorType: ColorType
    let interlaced: Bool

    /// Bits per stored pixel.
    var bitsPerPixel: Int { bitDepth * colorType.storedChannels }
    /// The filter's byte distance to the "left" pixel: bytes per pixel, at least 1.
    var filterStride: Int { max(1, bitsPerPixel / 8) }

    /// Bytes in one unfiltered row of `pixels` pixels, without the filter-type byte.
    func rowBytes(_ pixels: Int) -> Int { (pixels * bitsPerPixel + 7) / 8 }

    init(_ d: ArraySlice<UInt8>) throws(ImageError) {
        guard d.count == 13 else { throw .malformed(.png, "IHDR has \(d.count) bytes, expected 13") }
        let b = d.startIndex
        func u32(_ i: Int) -> Int { Int(d[b + i]) << 24 | Int(d[b + i + 1]) << 16 | Int(d[b + i + 2]) << 8 | Int(d[b + i + 3]) }
        width = u32(0)
        height = u32(4)
        bitDepth = Int(d[b + 8])
        guard let ct = ColorType(rawValue: d[b + 9]) else { throw .malformed(.png, "IHDR colour type \(d[b + 9]) is not 0, 2, 3, 4 or 6") }
        colorType = ct
        guard ct.allowedDepths.contains(bitDepth) else {
            throw .malformed(.png, "IHDR bit depth \(bitDepth) is not allowed for colour type \(ct.rawValue)")
        }
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .malformed(.png, "IHDR size \(width)x\(height) is outside 1...2^31-1")
        }
        guard d[b + 10] == 0 else { throw .malformed(.png, "IHDR compression method \(d[b + 10]), expected 0") }
        guard d[b + 11] == 0 else { throw .malformed(.png, "IHDR filter method \(d[b + 11]), expected 0") }
        guard d[b + 12] <= 1 else { throw .malformed(.png, "IHDR interlace method \(d[b + 12]), expected 0 or 1") }
        interlaced = d[b + 12] == 1
    }
}

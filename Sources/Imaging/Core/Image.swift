/// A decoded raster image: `height` rows of `width` pixels, each pixel `layout.channels`
/// samples of 8 or 16 bits, stored row-major and interleaved (HWC), top row first.
///
/// Values are plain samples with no gamma or colour management applied. An `Image` is a
/// value type; every operation returns a new image.
public struct Image: Sendable, Equatable {
    /// The sample storage: 8-bit or 16-bit, `width * height * channels` values.
    public enum Samples: Sendable, Equatable {
        /// 8-bit samples, 0...255.
        case uInt8([UInt8])
        /// 16-bit samples, 0...65535.
        case uInt16([UInt16])

        /// Number of samples.
        public var count: Int {
            switch self {
            case .uInt8(let s): return s.count
            case .uInt16(let s): return s.count
            }
        }
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The channels of each pixel.
    public let pixelLayout: PixelLayout
    /// The samples, HWC order.
    public internal(set) var samples: Samples

    /// Samples per pixel (1 to 4).
    public var channels: Int { pixelLayout.channels }

    /// Bits per sample: 8 or 16.
    public var bitDepth: Int {
        if case .uInt16 = samples { return 16 }
        return 8
    }

    /// The largest sample value at this bit depth (255 or 65535).
    public var maxSampleValue: Int { bitDepth == 16 ? 65_535 : 255 }

    /// Creates an 8-bit image; `pixels.count` must equal `width * height * layout.channels`.
    public init(width: Int, height: Int, pixelLayout: PixelLayout, pixels: [UInt8]) throws(ImageError) {
        try Image.checkShape(width, height, pixelLayout, pixels.count)
        self.init(uncheckedWidth: width, height: height, pixelLayout: pixelLayout, samples: .uInt8(pixels))
    }

    /// Creates a 16-bit image; `pixels.count` must equal `width * height * layout.channels`.
    public init(width: Int, height: Int, pixelLayout: PixelLayout, pixels16: [UInt16]) throws(ImageError) {
        try Image.checkShape(width, height, pixelLayout, pixels16.count)
        self.init(uncheckedWidth: width, height: height, pixelLayout: pixelLayout, samples: .uInt16(pixels16))
    }

    /// Creates an image from storage whose size the caller has already established.
    init(uncheckedWidth width: Int, height: Int, pixelLayout: PixelLayout, samples: Samples) {
        self.width = width
        self.height = height
        self.pixelLayout = pixelLayout
        self.samples = samples
    }

    /// The 8-bit samples, or nil for a 16-bit image.
    public var pixels8: [UInt8]? {
        if case .uInt8(let s) = samples { return s }
        return nil
    }

    /// The 16-bit samples, or nil for an 8-bit image.
    public var pixels16: [UInt16]? {
        if case .uInt16(let s) = samples { return s }
        return nil
    }

    /// The image at 8 bits per sample: 16-bit samples are scaled with rounding
    /// (`(v * 255 + 32767) / 65535`), 8-bit images are returned unchanged.
    public func to8Bit() -> Image {
        switch samples {
        case .uInt8: return self
        case .uInt16(let s):
            let out = s.map { UInt8((UInt32($0) * 255 + 32_767) / 65_535) }
            return Image(uncheckedWidth: width, height: height, pixelLayout: pixelLayout, samples: .uInt8(out))
        }
    }

    /// Sample `channel` of pixel (`x`, `y`) as an integer at the image's bit depth.
    /// Coordinates must be inside the image.
    public func sample(x: Int, y: Int, channel: Int) -> Int {
        precondition(x >= 0 && x < width && y >= 0 && y < height && channel >= 0 && channel < channels,
                     "pixel (\(x), \(y)) channel \(channel) is outside the \(width)x\(height)x\(channels) image")
        let i = (y * width + x) * channels + channel
        switch samples {
        case .uInt8(let s): return Int(s[i])
        case .uInt16(let s): return Int(s[i])
        }
    }

    private static func checkShape(_ width: Int, _ height: Int, _ layout: PixelLayout, _ count: Int) throws(ImageError) {
        guard width > 0, height > 0 else { throw .invalidArgument("image size \(width)x\(height) must be positive") }
        let (pixels, o1) = width.multipliedReportingOverflow(by: height)
        let (needed, o2) = pixels.multipliedReportingOverflow(by: layout.channels)
        guard !o1, !o2, needed == count else {
            throw .invalidArgument("\(count) samples given, a \(width)x\(height) \(layout) image needs \(o1 || o2 ? "more than Int.max" : String(needed))")
        }
    }
}

extension Image.Samples {
    /// Applies a generic transformation to whichever storage is present.
    func map(_ body8: ([UInt8]) -> [UInt8], _ body16: ([UInt16]) -> [UInt16]) -> Image.Samples {
        switch self {
        case .uInt8(let s): return .uInt8(body8(s))
        case .uInt16(let s): return .uInt16(body16(s))
        }
    }
}

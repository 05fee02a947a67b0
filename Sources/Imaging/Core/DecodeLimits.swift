/// Upper bounds checked before the decoder allocates anything proportional to a size read
/// from the file, so a small hostile file cannot make it reserve gigabytes.
public struct DecodeLimits: Sendable, Equatable {
    /// Largest accepted width or height, in pixels.
    public var maxDimension: Int
    /// Largest accepted `width * height`.
    public var maxPixels: Int
    /// Largest accepted size of any decoded or decompressed buffer, in bytes.
    public var maxBytes: Int

    /// Creates limits; every value must be positive.
    public init(maxDimension: Int, maxPixels: Int, maxBytes: Int) {
        self.maxDimension = max(1, maxDimension)
        self.maxPixels = max(1, maxPixels)
        self.maxBytes = max(1, maxBytes)
    }

    /// 65,535 pixels a side, 178,956,970 pixels (Pillow's decompression-bomb threshold)
    /// and 1 GiB per buffer.
    public static let `default` = DecodeLimits(maxDimension: 65_535, maxPixels: 178_956_970, maxBytes: 1 << 30)

    /// Checks a claimed image size against the limits and returns the byte size of the
    /// decoded samples (`width * height * channels * bytesPerSample`).
    func checkImage(width: Int, height: Int, channels: Int, bytesPerSample: Int, format: ImageFormat) throws(ImageError) -> Int {
        guard width > 0, height > 0 else {
            throw .malformed(format, "image size \(width)x\(height) is empty")
        }
        guard width <= maxDimension, height <= maxDimension else {
            throw .limitExceeded("\(format.rawValue) \(width)x\(height) exceeds the \(maxDimension)-pixel side limit")
        }
        let (pixels, o1) = width.multipliedReportingOverflow(by: height)
        guard !o1, pixels <= maxPixels else {
            throw .limitExceeded("\(format.rawValue) \(width)x\(height) exceeds the \(maxPixels)-pixel limit")
        }
        let (bytes, o2) = pixels.multipliedReportingOverflow(by: channels * bytesPerSample)
        guard !o2, bytes <= maxBytes else {
            throw .limitExceeded("\(format.rawValue) \(width)x\(height)x\(channels) needs more than the \(maxBytes)-byte limit")
        }
        return bytes
    }

    /// Checks a buffer size computed from file values against `maxBytes`.
    func checkBytes(_ count: Int, _ what: String) throws(ImageError) {
        guard count >= 0, count <= maxBytes else {
            throw .limitExceeded("\(what) needs \(count) bytes, over the \(maxBytes)-byte limit")
        }
    }
}

/// Decodes PNG, JPEG and PNM (PBM/PGM/PPM) files, recognising the format from its first bytes.
public enum ImageDecoder {
    /// The format `bytes` appear to be in, from their signature, or nil.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if PNGDecoder.matches(bytes) { return .png }
        if JPEGDecoder.matches(bytes) { return .jpeg }
        if PNMDecoder.matches(bytes) { return .pnm }
        return nil
    }

    /// Decodes an image file held in memory. The EXIF orientation of a JPEG is returned in
    /// `DecodedImage.orientation` and not applied to the pixels.
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - limits: size limits checked before any large allocation.
    /// - Throws: `ImageError` naming the format and what is wrong where.
    public static func decode(bytes: [UInt8], limits: DecodeLimits = .default) throws(ImageError) -> DecodedImage {
        switch sniff(bytes) {
        case .png:
            return DecodedImage(image: try PNGDecoder.decode(bytes, limits: limits), format: .png)
        case .jpeg:
            let (image, orientation) = try JPEGDecoder.decode(bytes, limits: limits)
            return DecodedImage(image: image, format: .jpeg, orientation: orientation)
        case .pnm:
            return DecodedImage(image: try PNMDecoder.decode(bytes, limits: limits), format: .pnm)
        case nil:
            throw .unrecognizedFormat
        }
    }
}

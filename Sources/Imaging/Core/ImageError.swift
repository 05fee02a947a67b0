
/// Why an image could not be decoded, encoded or transformed. Every message names the
/// format and, for decoding errors, the byte offset or structure where the problem was found.
public enum ImageError: Error, Equatable, CustomStringConvertible {
    /// The first bytes match none of PNG, JPEG or PNM.
    case unrecognizedFormat
    /// The data ends before the structure named in the message is complete.
    case truncated(ImageFormat, String)
    /// The data breaks the format's rules (bad value, wrong order, bad Huffman code...).
    case malformed(ImageFormat, String)
    /// A CRC-32 or Adler-32 checksum does not match the data it covers.
    case checksumMismatch(ImageFormat, String)
    /// The data is valid but uses a feature this decoder does not implement.
    case unsupported(ImageFormat, String)
    /// The image is larger than the caller's `DecodeLimits` allow.
    case limitExceeded(String)
    /// An operation was asked for something impossible (crop outside the image, zero size...).
    case invalidArgument(String)

    /// A one-line message: the format, the kind of problem and where it was found.
    public var description: String {
        switch self {
        case .unrecognizedFormat:
            return "unrecognized image format (expected PNG, JPEG or PNM/PBM/PGM/PPM)"
        case .truncated(let f, let what): return "\(f.rawValue): truncated data: \(what)"
        case .malformed(let f, let what): return "\(f.rawValue): malformed data: \(what)"
        case .checksumMismatch(let f, let what): return "\(f.rawValue): checksum mismatch: \(what)"
        case .unsupported(let f, let what): return "\(f.rawValue): unsupported: \(what)"
        case .limitExceeded(let what): return "image too large: \(what)"
        case .invalidArgument(let what): return "invalid argument: \(what)"
        }
    }
}

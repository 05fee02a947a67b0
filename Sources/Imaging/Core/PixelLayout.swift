/// The channels of one pixel, in memory order.
public enum PixelLayout: String, Sendable, Equatable, CaseIterable {
    /// One luminance sample.
    case gray
    /// Luminance then alpha.
    case grayAlpha
    /// Red, green, blue.
    case rgb
    /// Red, green, blue, alpha.
    case rgba

    /// Samples per pixel.
    public var channels: Int {
        switch self {
        case .gray: return 1
        case .grayAlpha: return 2
        case .rgb: return 3
        case .rgba: return 4
        }
    }

    /// True for `.grayAlpha` and `.rgba`.
    public var hasAlpha: Bool { self == .grayAlpha || self == .rgba }

    /// True for `.rgb` and `.rgba`.
    public var isColor: Bool { self == .rgb || self == .rgba }

    /// The layout with `channels` samples per pixel, if there is one.
    public init?(channels: Int) {
        switch channels {
        case 1: self = .gray
        case 2: self = .grayAlpha
        case 3: self = .rgb
        case 4: self = .rgba
        default: return nil
        }
    }
}

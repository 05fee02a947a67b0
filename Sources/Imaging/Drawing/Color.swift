/// An 8-bit RGBA colour for drawing. On gray images its luma is used; on 16-bit images
/// each component is scaled by 257 (so 255 becomes 65535).
public struct Color: Sendable, Equatable {
    /// Red, green, blue and alpha, 0...255.
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

    /// Creates a colour; alpha defaults to opaque.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Opaque black.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 255, green: 255, blue: 255)
    /// Opaque red.
    public static let red = Color(red: 255, green: 0, blue: 0)
    /// Opaque green.
    public static let green = Color(red: 0, green: 255, blue: 0)
    /// Opaque blue.
    public static let blue = Color(red: 0, green: 0, blue: 255)
    /// Opaque yellow.
    public static let yellow = Color(red: 255, green: 255, blue: 0)

    /// The samples this colour writes into a pixel of `layout` (alpha replaces the pixel's
    /// alpha; there is no blending), at 8 or 16 bits.
    func samples(for layout: PixelLayout, bitDepth: Int) -> [Int] {
        let scale = bitDepth == 16 ? 257 : 1
        let luma = (19_595 * Int(red) + 38_470 * Int(green) + 7_471 * Int(blue) + 32_768) >> 16
        let values: [Int]
        switch layout {
        case .gray: values = [luma]
        case .grayAlpha: values = [luma, Int(alpha)]
        case .rgb: values = [Int(red), Int(green), Int(blue)]
        case .rgba: values = [Int(red), Int(green), Int(blue), Int(alpha)]
        }
        return values.map { $0 * scale }
    }
}

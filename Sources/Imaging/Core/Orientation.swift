/// How stored pixels must be transformed for display: the eight EXIF orientations, named as
/// ML Kit's `VisionImage.orientation` (UIKit's `UIImage.Orientation`) names them.
///
/// The raw value is the EXIF `Orientation` tag value (TIFF tag 0x0112).
public enum Orientation: Int, Sendable, Equatable, CaseIterable {
    /// EXIF 1: stored as displayed.
    case up = 1
    /// EXIF 2: mirrored left to right.
    case upMirrored = 2
    /// EXIF 3: rotated 180 degrees.
    case down = 3
    /// EXIF 4: mirrored top to bottom.
    case downMirrored = 4
    /// EXIF 5: mirrored along the main diagonal (transposed).
    case leftMirrored = 5
    /// EXIF 6: must be rotated 90 degrees clockwise for display.
    case right = 6
    /// EXIF 7: mirrored along the anti-diagonal (transverse).
    case rightMirrored = 7
    /// EXIF 8: must be rotated 90 degrees counter-clockwise for display.
    case left = 8

    /// True when displaying swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The orientation for an EXIF tag value, or nil outside 1...8.
    public init?(exifValue: Int) { self.init(rawValue: exifValue) }
}

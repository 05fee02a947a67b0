import Foundation
public import Imaging
internal import TFLiteTasks

/// An image to label (ML Kit's `VisionImage`), with the orientation it is displayed in.
/// ML Kit takes a `UIImage`; here the image is decoded pixels (``Imaging/Image``) or a PNG,
/// PNM or JPEG file.
public final class VisionImage: @unchecked Sendable {
    /// The stored pixels.
    public let image: Image
    /// How the stored pixels are turned for display; results refer to the displayed image.
    public var orientation: Orientation

    /// Wraps decoded pixels, displayed as stored.
    public init(image: Image) {
        self.image = image
        orientation = .up
    }

    /// Decodes an image file (its EXIF orientation included); nil when it cannot be read or
    /// decoded, like `UIImage(contentsOfFile:)`.
    public init?(contentsOfFile path: String) {
        guard let decoded = try? TFLiteTasks.VisionImage(path: path) else { return nil }
        image = decoded.image
        orientation = decoded.orientation
    }

    var taskImage: TFLiteTasks.VisionImage {
        TFLiteTasks.VisionImage(image: image, orientation: orientation)
    }
}

import Foundation
public import Imaging
internal import TFLiteTasks

/// An image to label (ML Kit's `VisionImage`), with the orientation it is displayed in.
/// Made from decoded pixels (`Imaging.Image`), a PNG, PNM or JPEG file, or, on Apple
/// platforms, a `UIImage` or `CGImage` as in ML Kit.
public final class VisionImage: @unchecked Sendable {
    /// The stored pixels.
    public let image: Image
    /// How the stored pixels are turned for display; results refer to the displayed image.
    public var orientation: Orientation
    /// Why the image given has no pixels (an empty `UIImage`), reported by every call that
    /// uses it, as ML Kit reports it; nil for a usable image.
    private let unreadable: String?

    /// Wraps decoded pixels, displayed as stored.
    public convenience init(image: Image) {
        self.init(image: image, orientation: .up)
    }

    /// Decodes an image file (its EXIF orientation included); nil when it cannot be read or
    /// decoded, like `UIImage(contentsOfFile:)`.
    public convenience init?(contentsOfFile path: String) {
        guard let decoded = try? TFLiteTasks.VisionImage(path: path) else { return nil }
        self.init(image: decoded.image, orientation: decoded.orientation)
    }

    init(image: Image, orientation: Orientation, unreadable: String? = nil) {
        self.image = image
        self.orientation = orientation
        self.unreadable = unreadable
    }

    var taskImage: TFLiteTasks.VisionImage {
        get throws(NSError) {
            if let unreadable { throw VisionError.failed(unreadable) }
            return TFLiteTasks.VisionImage(image: image, orientation: orientation)
        }
    }
}

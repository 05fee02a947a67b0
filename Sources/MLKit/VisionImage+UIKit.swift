#if canImport(UIKit)
#if canImport(CoreImage)
import CoreImage
#endif
import Imaging
import UIKit

extension VisionImage {
    /// ML Kit's `VisionImage(image:)`: a `UIImage`'s pixels, shown in its `imageOrientation`
    /// (a UIImage keeps the pixels as captured and says how to turn them, as EXIF does). An
    /// image without pixels (an empty `UIImage`) is reported by every call that uses it.
    public convenience init(image: UIImage) {
        self.init(pixelsOf: Self.cgImage(of: image), orientation: Orientation(image.imageOrientation))
    }

    private static func cgImage(of image: UIImage) -> CGImage? {
        #if canImport(CoreImage)
        // A UIImage made from a CIImage has no CGImage until it is rendered (watchOS has neither).
        if image.cgImage == nil, let ciImage = image.ciImage {
            return CIContext().createCGImage(ciImage, from: ciImage.extent)
        }
        #endif
        return image.cgImage
    }
}

extension Orientation {
    /// UIKit's orientation, which these cases are named after (the same EXIF values).
    init(_ orientation: UIImage.Orientation) {
        switch orientation {
        case .up: self = .up
        case .down: self = .down
        case .left: self = .left
        case .right: self = .right
        case .upMirrored: self = .upMirrored
        case .downMirrored: self = .downMirrored
        case .leftMirrored: self = .leftMirrored
        case .rightMirrored: self = .rightMirrored
        @unknown default: self = .up
        }
    }
}
#endif

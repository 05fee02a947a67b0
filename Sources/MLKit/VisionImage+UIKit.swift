#if canImport(UIKit)
import CoreImage
import Imaging
import UIKit

extension VisionImage {
    /// ML Kit's `VisionImage(image:)`: a `UIImage`'s pixels, shown in its `imageOrientation`
    /// (a UIImage keeps the pixels as captured and says how to turn them, as EXIF does). An
    /// image without pixels (an empty `UIImage`) is reported by every call that uses it.
    public convenience init(image: UIImage) {
        // A UIImage made from a CIImage has no CGImage until it is rendered.
        let cgImage = image.cgImage ?? image.ciImage.flatMap { CIContext().createCGImage($0, from: $0.extent) }
        self.init(pixelsOf: cgImage, orientation: Orientation(image.imageOrientation))
    }
}

extension Orientation {
    /// UIKit's orientation, which these cases are named after.
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

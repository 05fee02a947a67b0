import Foundation
import Imaging

/// An image handed to a detector or labeller, with the orientation it must be displayed in
/// (ML Kit's `VisionImage`). Results are reported in the coordinates of the displayed
/// (oriented) image.
public struct VisionImage: Sendable {
    /// The stored pixels.
    public var image: Image
    /// How the stored pixels must be transformed for display.
    public var orientation: Orientation

    /// Wraps decoded pixels.
    public init(image: Image, orientation: Orientation = .up) {
        self.image = image
        self.orientation = orientation
    }

    /// Decodes PNG, PNM or JPEG bytes; the orientation is the file's EXIF orientation.
    public init(bytes: [UInt8]) throws(TaskError) {
        do {
            let decoded = try ImageDecoder.decode(bytes: bytes)
            self.init(image: decoded.image, orientation: decoded.orientation)
        } catch {
            throw .invalidImage("\(error)")
        }
    }

    /// Reads and decodes an image file.
    public init(path: String) throws(TaskError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .fileNotFound(path) }
        do { try self.init(bytes: [UInt8](data)) } catch { throw .invalidImage("\(path): \(Self.detail(error))") }
    }

    private static func detail(_ e: TaskError) -> String {
        if case .invalidImage(let m) = e { return m }
        return e.description
    }

    /// The displayed (oriented) image's width and height, the space results are reported in.
    public var displayedSize: ImageSize {
        let swaps = orientation.swapsDimensions
        return ImageSize(width: swaps ? image.height : image.width, height: swaps ? image.width : image.height)
    }

    /// The displayed image as 8-bit RGB (gray expanded, alpha dropped).
    func orientedRGB() -> Image {
        image.applying(orientation).to8Bit().converted(to: .rgb)
    }
}

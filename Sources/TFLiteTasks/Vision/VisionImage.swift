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

    /// The displayed image as 8-bit RGB (gray expanded, alpha dropped).
    func orientedRGB() -> Image {
        let oriented = image.applying(orientation).to8Bit()
        guard oriented.pixelLayout != .rgb, let p = oriented.pixels8 else { return oriented }
        let c = oriented.channels, n = oriented.width * oriented.height
        var rgb = [UInt8](repeating: 0, count: n * 3)
        for i in 0..<n {
            let isGray = oriented.pixelLayout == .gray || oriented.pixelLayout == .grayAlpha
            for k in 0..<3 { rgb[i * 3 + k] = p[i * c + (isGray ? 0 : k)] }
        }
        // Dimensions and sample count agree by construction.
        return try! Image(width: oriented.width, height: oriented.height, pixelLayout: .rgb, pixels: rgb)
    }
}

/// The result of decoding a file: the stored pixels, the format they came from and the
/// EXIF orientation, which is reported rather than applied.
public struct DecodedImage: Sendable, Equatable {
    /// The pixels as stored in the file (no orientation applied).
    public var image: Image
    /// The file's format.
    public var format: ImageFormat
    /// The EXIF orientation tag if the file has one, else `.up`.
    public var orientation: Orientation

    /// Creates a decoded image.
    public init(image: Image, format: ImageFormat, orientation: Orientation = .up) {
        self.image = image
        self.format = format
        self.orientation = orientation
    }

    /// The pixels as they should be displayed (orientation applied).
    public var orientedImage: Image { image.applying(orientation) }
}

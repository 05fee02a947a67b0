/// A rectangle in image pixels (origin top-left).
public struct PixelRect: Sendable, Equatable, Codable {
    /// Edges in pixels of the displayed image.
    public var left: Float, top: Float, right: Float, bottom: Float

    /// Creates a rectangle.
    public init(left: Float, top: Float, right: Float, bottom: Float) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }
}

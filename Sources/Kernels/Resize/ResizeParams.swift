/// The coordinate flags shared by RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR.
public struct ResizeParams: Sendable, Equatable {
    /// Map the corner pixels of input and output onto each other.
    public var alignCorners: Bool
    /// Sample at pixel centres (`(x + 0.5) * scale - 0.5`).
    public var halfPixelCenters: Bool

    /// Creates resize flags.
    public init(alignCorners: Bool, halfPixelCenters: Bool) {
        self.alignCorners = alignCorners
        self.halfPixelCenters = halfPixelCenters
    }
}

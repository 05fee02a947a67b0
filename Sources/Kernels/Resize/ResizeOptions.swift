/// Options shared by the resize kernels.
public struct ResizeOptions: Sendable, Equatable {
    /// Align the corner pixels of input and output.
    public var alignCorners: Bool
    /// Sample at pixel centres (TF2 behaviour).
    public var halfPixelCenters: Bool

    /// Creates the options.
    public init(alignCorners: Bool, halfPixelCenters: Bool) {
        self.alignCorners = alignCorners
        self.halfPixelCenters = halfPixelCenters
    }
}

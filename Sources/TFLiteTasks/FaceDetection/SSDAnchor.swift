/// One SSD anchor: the box a model's raw box regression is relative to, in coordinates
/// normalised to the model input (MediaPipe's `Anchor` proto).
public struct SSDAnchor: Sendable, Equatable {
    /// The anchor's centre, 0...1 across the input.
    public var xCenter: Float, yCenter: Float
    /// The anchor's size; 1 for models trained with a fixed anchor size.
    public var width: Float, height: Float

    /// Creates an anchor.
    public init(xCenter: Float, yCenter: Float, width: Float, height: Float) {
        self.xCenter = xCenter
        self.yCenter = yCenter
        self.width = width
        self.height = height
    }
}

/// One label for an image (ML Kit's `ImageLabel`).
public struct ImageLabel: Sendable, Equatable, Codable {
    /// The class's label text; empty when the model has no labels.
    public var text: String
    /// The class's probability in [0, 1].
    public var confidence: Float
    /// The class index in the model's output.
    public var index: Int

    /// Creates a label.
    public init(text: String, confidence: Float, index: Int) {
        self.text = text
        self.confidence = confidence
        self.index = index
    }
}

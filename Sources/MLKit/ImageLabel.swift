/// One label of an image (ML Kit's `ImageLabel`).
public final class ImageLabel: @unchecked Sendable {
    /// The label's text, from the model's labels; empty when the model has none.
    public let text: String
    /// The model's confidence, 0 to 1.
    public let confidence: Float
    /// The index of the label in the model's output.
    public let index: Int

    init(text: String, confidence: Float, index: Int) {
        self.text = text
        self.confidence = confidence
        self.index = index
    }
}

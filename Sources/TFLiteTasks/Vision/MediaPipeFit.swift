/// How MediaPipe's `ImageToTensorCalculator` fits an image into a model input.
public enum MediaPipeFit: Sendable, Equatable {
    /// The whole image scaled to the input's shape (`keep_aspect_ratio: false`).
    case stretch
    /// The image scaled to fit with its aspect ratio kept, the rest black (see ``Letterbox``).
    case letterbox
}

/// A detection in coordinates relative to the model input (0...1 across it), with its
/// keypoints: MediaPipe's `Detection` with a `RELATIVE_BOUNDING_BOX`, as it travels from box
/// decoding through non-maximum suppression to the projection onto the image.
struct RelativeDetection: Sendable, Equatable {
    var score: Float
    var xMin: Float, yMin: Float, width: Float, height: Float
    /// Keypoints as x, y pairs.
    var keypoints: [SIMD2<Float>]

    /// The box's right and bottom edges, computed as MediaPipe's `Rectangle_f` does from the
    /// origin and size (so areas and overlaps round the same way).
    var xMax: Float { xMin + width }
    var yMax: Float { yMin + height }
}

/// One face found by a ``FaceDetector``.
public struct DetectedFace: Sendable, Equatable {
    /// The face's box in pixels of the displayed (oriented) image, clipped to the image as
    /// MediaPipe's face detector task reports it.
    public var frame: PixelRect
    /// The detection score, 0...1 (the sigmoid of the model's score).
    public var confidence: Float
    /// The six landmarks, in ``FaceKeypoint/Kind`` order.
    public var keypoints: [FaceKeypoint]

    /// Creates a face.
    public init(frame: PixelRect, confidence: Float, keypoints: [FaceKeypoint]) {
        self.frame = frame
        self.confidence = confidence
        self.keypoints = keypoints
    }

    /// The landmark of `kind`, if the detection has it.
    public func keypoint(_ kind: FaceKeypoint.Kind) -> FaceKeypoint? {
        keypoints.first { $0.kind == kind }
    }
}

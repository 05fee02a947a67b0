/// A face landmark found by the face detector, in pixels of the displayed image.
public struct FaceKeypoint: Sendable, Equatable {
    /// Which landmark, in the order and with the names MediaPipe's face detection gives its
    /// six keypoints.
    public enum Kind: Int, Sendable, CaseIterable, CustomStringConvertible {
        case rightEye, leftEye, noseTip, mouthCenter, rightEarTragion, leftEarTragion

        /// The name in snake case, as the tool's JSON writes it (`right_eye`, ...).
        public var description: String {
            switch self {
            case .rightEye: return "right_eye"
            case .leftEye: return "left_eye"
            case .noseTip: return "nose_tip"
            case .mouthCenter: return "mouth_center"
            case .rightEarTragion: return "right_ear_tragion"
            case .leftEarTragion: return "left_ear_tragion"
            }
        }
    }

    /// Which landmark this is.
    public var kind: Kind
    /// The position in pixels; a landmark the face hides or that lies past the image edge
    /// may be outside the image (it is not clipped).
    public var x: Float, y: Float

    /// Creates a keypoint.
    public init(kind: Kind, x: Float, y: Float) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}

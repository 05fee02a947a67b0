import Imaging
import TFLiteTasks

/// Draws detected faces on the displayed image: each box with its score, and the six
/// keypoints as small squares, one colour per kind.
enum FaceAnnotation {
    static let boxColor = Color.green
    /// Per keypoint kind, in `FaceKeypoint.Kind` order: eyes, nose, mouth, ears.
    static let keypointColors: [Color] = [.red, .blue, .yellow, Color(red: 255, green: 0, blue: 255),
                                          Color(red: 0, green: 220, blue: 220), .white]

    static func draw(_ faces: [DetectedFace], on image: VisionImage) -> Image {
        var canvas = AnnotationCanvas(image)
        for face in faces {
            canvas.outline(face.frame, color: boxColor)
            let dot = max(3, 2 * canvas.lineWidth)
            for k in face.keypoints {
                canvas.image.fillRectangle(x: Int(k.x.rounded()) - dot / 2, y: Int(k.y.rounded()) - dot / 2, width: dot, height: dot,
                                           color: keypointColors[k.kind.rawValue % keypointColors.count])
            }
            canvas.label("face \(Int((face.confidence * 100).rounded()))%", above: face.frame, background: boxColor)
        }
        return canvas.image
    }
}

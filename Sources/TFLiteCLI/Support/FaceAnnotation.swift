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
        var canvas = image.image.applying(image.orientation).to8Bit().converted(to: .rgb)
        let line = max(2, min(canvas.width, canvas.height) / 150)
        let scale = max(1, min(canvas.width, canvas.height) / 200)
        for face in faces {
            let l = Int(face.frame.left.rounded()), t = Int(face.frame.top.rounded())
            let r = Int(face.frame.right.rounded()), b = Int(face.frame.bottom.rounded())
            canvas.drawRectangle(x: l, y: t, width: max(1, r - l), height: max(1, b - t), color: boxColor, lineWidth: line)
            let dot = max(3, 2 * line)
            for k in face.keypoints {
                canvas.fillRectangle(x: Int(k.x.rounded()) - dot / 2, y: Int(k.y.rounded()) - dot / 2, width: dot, height: dot,
                                     color: keypointColors[k.kind.rawValue % keypointColors.count])
            }
            let text = "face \(Int((face.confidence * 100).rounded()))%"
            canvas.drawLabel(text, x: l, y: max(0, t - 9 * scale), background: boxColor, scale: scale)
        }
        return canvas
    }
}

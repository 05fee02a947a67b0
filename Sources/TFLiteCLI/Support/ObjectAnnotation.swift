import Imaging
import TFLiteTasks

/// Draws detection boxes with their label and score on the displayed image.
enum ObjectAnnotation {
    static let palette: [Color] = [.red, .green, .blue, .yellow, Color(red: 255, green: 0, blue: 255), Color(red: 0, green: 220, blue: 220)]

    static func draw(_ objects: [DetectedObject], on image: VisionImage) -> Image {
        var canvas = AnnotationCanvas(image)
        for o in objects {
            let color = palette[((o.index % palette.count) + palette.count) % palette.count]
            canvas.outline(o.frame, color: color)
            let text = "\(o.text.isEmpty ? String(o.index) : o.text) \(Int((o.confidence * 100).rounded()))%"
            canvas.label(text, above: o.frame, background: color)
        }
        return canvas.image
    }
}

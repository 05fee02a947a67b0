import Imaging
import TFLiteTasks

/// What the `--annotate` drawings share: the displayed image as 8-bit RGB, and outline and
/// label sizes that grow with it so that they stay visible on large photos.
struct AnnotationCanvas {
    var image: Image
    let lineWidth: Int
    let labelScale: Int

    init(_ source: VisionImage) {
        image = source.image.applying(source.orientation).to8Bit().converted(to: .rgb)
        lineWidth = max(2, min(image.width, image.height) / 150)
        labelScale = max(1, min(image.width, image.height) / 200)
    }

    /// Outlines `frame`, rounded to whole pixels.
    mutating func outline(_ frame: PixelRect, color: Color) {
        let l = Int(frame.left.rounded()), t = Int(frame.top.rounded())
        let r = Int(frame.right.rounded()), b = Int(frame.bottom.rounded())
        image.drawRectangle(x: l, y: t, width: max(1, r - l), height: max(1, b - t), color: color, lineWidth: lineWidth)
    }

    /// Writes `text` on a label just above the top-left corner of `frame`.
    mutating func label(_ text: String, above frame: PixelRect, background: Color) {
        let l = Int(frame.left.rounded()), t = Int(frame.top.rounded())
        image.drawLabel(text, x: l, y: max(0, t - 9 * labelScale), background: background, scale: labelScale)
    }
}

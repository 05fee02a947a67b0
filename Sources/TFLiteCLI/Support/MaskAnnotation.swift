import Imaging
import TFLiteTasks

/// Shows a segmentation mask on the displayed image: each pixel moves toward the tint by
/// `strength x confidence` and is darkened by `dimming x (1 - confidence)`, so the person
/// stands out from the background and the mask's soft edges stay visible.
enum MaskAnnotation {
    static let tint = Color(red: 255, green: 0, blue: 200)
    static let strength: Float = 0.45
    static let dimming: Float = 0.55

    /// `mask` must have the displayed image's size (as the segmenter returns it).
    static func draw(_ mask: ConfidenceMask, on image: VisionImage) throws -> Image {
        let canvas = image.image.applying(image.orientation).to8Bit().converted(to: .rgb)
        guard mask.width == canvas.width, mask.height == canvas.height, var pixels = canvas.pixels8 else {
            throw CLIError("the \(mask.width)x\(mask.height) mask does not fit the \(canvas.width)x\(canvas.height) image")
        }
        let tint = [Float(Self.tint.red), Float(Self.tint.green), Float(Self.tint.blue)]
        for i in 0..<mask.values.count {
            let confidence = min(max(mask.values[i], 0), 1)
            let a = strength * confidence, keep = 1 - dimming * (1 - confidence)
            for c in 0..<3 {
                let p = Float(pixels[3 * i + c])
                pixels[3 * i + c] = UInt8(((p + (tint[c] - p) * a) * keep).rounded())
            }
        }
        return try Image(width: canvas.width, height: canvas.height, pixelLayout: .rgb, pixels: pixels)
    }
}

#if canImport(CoreGraphics)
import CoreGraphics
public import Imaging

extension Image {
    /// The pixels of `cgImage` as 8-bit RGB, drawn into an sRGB bitmap (the colour space the
    /// photos models learn from) with alpha dropped; nil when Core Graphics cannot draw it.
    /// Rows come top first, as Core Graphics lays out bitmap memory.
    init?(rgbOf cgImage: CGImage) {
        let width = cgImage.width, height = cgImage.height
        guard width > 0, height > 0, let space = CGColorSpace(name: CGColorSpace.sRGB) else { return nil }
        var rgbx = [UInt8](repeating: 0, count: width * height * 4)
        let drawn = rgbx.withUnsafeMutableBytes { buffer -> Bool in
            // 8-bit RGB with a padding byte: a layout every Core Graphics version can draw into.
            guard let context = CGContext(data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8,
                                          bytesPerRow: width * 4, space: space,
                                          bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue) else { return false }
            context.draw(cgImage, in: CGRect(x: 0, y: 0, width: width, height: height))
            return true
        }
        guard drawn else { return nil }
        var rgb = [UInt8]()
        rgb.reserveCapacity(width * height * 3)
        for i in stride(from: 0, to: rgbx.count, by: 4) { rgb += rgbx[i..<i + 3] }
        guard let image = try? Image(width: width, height: height, pixelLayout: .rgb, pixels: rgb) else { return nil }
        self = image
    }
}

extension VisionImage {
    /// The pixels of a `CGImage`, displayed as stored; an image Core Graphics cannot draw is
    /// reported by every call that uses it.
    public convenience init(image: CGImage) {
        self.init(pixelsOf: image, orientation: .up)
    }

    /// `cgImage`'s pixels shown in `orientation`, or a placeholder that reports why there are none.
    convenience init(pixelsOf cgImage: CGImage?, orientation: Orientation) {
        if let cgImage, let pixels = Image(rgbOf: cgImage) {
            self.init(image: pixels, orientation: orientation)
        } else {
            // One black pixel stands in for the image, which every use reports as unreadable.
            let placeholder = try! Image(width: 1, height: 1, pixelLayout: .rgb, pixels: [0, 0, 0])
            self.init(image: placeholder, orientation: .up, unreadable: "the image has no pixels Core Graphics can draw")
        }
    }
}
#endif

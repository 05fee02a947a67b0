extension Image {
    /// The image with another channel layout:
    /// - colour to gray uses ITU-R 601 luma in Pillow's fixed point,
    ///   `(19595 R + 38470 G + 7471 B + 32768) >> 16` (Pillow's `convert("L")`);
    /// - gray to colour replicates the gray value;
    /// - an added alpha channel is opaque (the maximum sample value);
    /// - a removed alpha channel is dropped, not composited.
    public func converted(to layout: PixelLayout) -> Image {
        if layout == pixelLayout { return self }
        let from = pixelLayout, c = channels, oc = layout.channels, n = width * height
        let opaque = maxSampleValue
        func convert<T: FixedWidthInteger>(_ s: [T]) -> [T] {
            var out = [T](repeating: 0, count: n * oc)
            for p in 0..<n {
                let i = p * c
                let gray: Int, r: Int, g: Int, b: Int
                if from.isColor {
                    r = Int(s[i]); g = Int(s[i + 1]); b = Int(s[i + 2])
                    gray = (19_595 * r + 38_470 * g + 7_471 * b + 32_768) >> 16
                } else {
                    gray = Int(s[i]); r = gray; g = gray; b = gray
                }
                let alpha = from.hasAlpha ? Int(s[i + c - 1]) : opaque
                let o = p * oc
                switch layout {
                case .gray:
                    out[o] = T(gray)
                case .grayAlpha:
                    out[o] = T(gray); out[o + 1] = T(alpha)
                case .rgb:
                    out[o] = T(r); out[o + 1] = T(g); out[o + 2] = T(b)
                case .rgba:
                    out[o] = T(r); out[o + 1] = T(g); out[o + 2] = T(b); out[o + 3] = T(alpha)
                }
            }
            return out
        }
        return Image(uncheckedWidth: width, height: height, pixelLayout: layout, samples: samples.map(convert, convert))
    }
}

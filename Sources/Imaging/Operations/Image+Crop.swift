extension Image {
    /// The pixels of the rectangle with top-left corner (`x`, `y`) and the given size, which
    /// must lie inside the image.
    public func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) throws(ImageError) -> Image {
        guard cropWidth > 0, cropHeight > 0, x >= 0, y >= 0,
              x <= width - cropWidth, y <= height - cropHeight else {
            throw .invalidArgument("crop (\(x), \(y)) \(cropWidth)x\(cropHeight) is not inside the \(width)x\(height) image")
        }
        let c = channels, w = width
        func cut<T>(_ s: [T]) -> [T] {
            var out: [T] = []
            out.reserveCapacity(cropWidth * cropHeight * c)
            for row in y..<(y + cropHeight) {
                let start = (row * w + x) * c
                out.append(contentsOf: s[start..<(start + cropWidth * c)])
            }
            return out
        }
        return Image(uncheckedWidth: cropWidth, height: cropHeight, pixelLayout: pixelLayout, samples: samples.map(cut, cut))
    }

    /// The largest centred square: `(w - s) / 2` pixels cut from the left (or `(h - s) / 2`
    /// from the top), rounding down, where `s = min(w, h)`.
    public func centerSquareCropped() -> Image {
        let s = min(width, height)
        // Inside by construction.
        return try! cropped(x: (width - s) / 2, y: (height - s) / 2, width: s, height: s)
    }
}

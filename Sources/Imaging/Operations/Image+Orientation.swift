extension Image {
    /// The image transformed from stored to display orientation: for `.right` (EXIF 6) the
    /// result is the stored image rotated 90 degrees clockwise, as `ImageOps.exif_transpose`
    /// and image viewers do. `.up` returns the image unchanged.
    public func applying(_ orientation: Orientation) -> Image {
        if orientation == .up { return self }
        let w = width, h = height
        let outW = orientation.swapsDimensions ? h : w
        let outH = orientation.swapsDimensions ? w : h
        // Source pixel for output (ox, oy); see the EXIF 2.3 orientation table.
        let source: (Int, Int) -> (Int, Int)
        switch orientation {
        case .up: source = { ($0, $1) }
        case .upMirrored: source = { (w - 1 - $0, $1) }
        case .down: source = { (w - 1 - $0, h - 1 - $1) }
        case .downMirrored: source = { ($0, h - 1 - $1) }
        case .leftMirrored: source = { ($1, $0) }
        case .right: source = { ox, oy in (oy, h - 1 - ox) }
        case .rightMirrored: source = { ox, oy in (w - 1 - oy, h - 1 - ox) }
        case .left: source = { ox, oy in (w - 1 - oy, ox) }
        }
        let c = channels
        func remap<T>(_ s: [T]) -> [T] {
            var out = s
            for oy in 0..<outH {
                for ox in 0..<outW {
                    let (sx, sy) = source(ox, oy)
                    let from = (sy * w + sx) * c, to = (oy * outW + ox) * c
                    for k in 0..<c { out[to + k] = s[from + k] }
                }
            }
            return out
        }
        return Image(uncheckedWidth: outW, height: outH, pixelLayout: pixelLayout, samples: samples.map(remap, remap))
    }
}

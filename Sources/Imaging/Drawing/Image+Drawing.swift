extension Image {
    /// Sets every pixel of the rectangle (clipped to the image) to `color`. Pixels outside
    /// the image are ignored, so any coordinates are accepted.
    public mutating func fillRectangle(x: Int, y: Int, width w: Int, height h: Int, color: Color) {
        let x0 = max(0, x), y0 = max(0, y)
        // Any coordinates are accepted: an overflowing end is past the image anyway.
        let (xEnd, xOverflow) = x.addingReportingOverflow(max(w, 0))
        let (yEnd, yOverflow) = y.addingReportingOverflow(max(h, 0))
        let x1 = xOverflow ? width : min(width, xEnd)
        let y1 = yOverflow ? height : min(height, yEnd)
        guard x0 < x1, y0 < y1 else { return }
        let value = color.samples(for: pixelLayout, bitDepth: bitDepth)
        let c = channels, imageWidth = width
        func paint<T: FixedWidthInteger>(_ s: inout [T]) {
            for row in y0..<y1 {
                for col in x0..<x1 {
                    let i = (row * imageWidth + col) * c
                    for k in 0..<c { s[i + k] = T(value[k]) }
                }
            }
        }
        switch samples {
        case .uInt8(var s):
            samples = .uInt8([])
            paint(&s)
            samples = .uInt8(s)
        case .uInt16(var s):
            samples = .uInt16([])
            paint(&s)
            samples = .uInt16(s)
        }
    }

    /// Draws the outline of a rectangle `lineWidth` pixels thick, inside the rectangle's
    /// bounds, clipped to the image.
    public mutating func drawRectangle(x: Int, y: Int, width w: Int, height h: Int, color: Color, lineWidth: Int = 2) {
        guard w > 0, h > 0, lineWidth > 0 else { return }
        let t = min(lineWidth, (min(w, h) + 1) / 2)
        fillRectangle(x: x, y: y, width: w, height: t, color: color)
        fillRectangle(x: x, y: y &+ h &- t, width: w, height: t, color: color)
        fillRectangle(x: x, y: y, width: t, height: h, color: color)
        fillRectangle(x: x &+ w &- t, y: y, width: t, height: h, color: color)
    }

    /// Writes `text` with the built-in 5x7 bitmap font, its top-left corner at (`x`, `y`),
    /// each font pixel drawn as a `scale` x `scale` square. Lower-case letters use the
    /// upper-case glyphs; characters without a glyph are drawn as a hollow box.
    /// Returns the width in pixels of the text drawn.
    @discardableResult
    public mutating func drawText(_ text: String, x: Int, y: Int, color: Color, scale: Int = 1) -> Int {
        let s = max(1, scale)
        var penX = x
        for character in text {
            let glyph = BitmapFont.glyph(for: character)
            for (row, bits) in glyph.enumerated() {
                for col in 0..<BitmapFont.glyphWidth where bits & (1 << (BitmapFont.glyphWidth - 1 - col)) != 0 {
                    fillRectangle(x: penX + col * s, y: y + row * s, width: s, height: s, color: color)
                }
            }
            penX += BitmapFont.advance * s
        }
        return penX - x
    }

    /// Draws `text` on a filled background box with a one-scaled-pixel margin: the usual
    /// look of a detection label. Returns the box's size.
    @discardableResult
    public mutating func drawLabel(_ text: String, x: Int, y: Int, textColor: Color = .black, background: Color = .yellow,
                                   scale: Int = 1) -> (width: Int, height: Int) {
        let s = max(1, scale)
        let size = BitmapFont.size(of: text, scale: s)
        let box = (width: size.width + 2 * s, height: size.height + 2 * s)
        fillRectangle(x: x, y: y, width: box.width, height: box.height, color: background)
        drawText(text, x: x + s, y: y + s, color: textColor, scale: s)
        return box
    }
}

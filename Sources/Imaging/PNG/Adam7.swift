/// The seven passes of Adam7 interlacing (PNG spec 8.2): each pass samples the pixels at
/// `x = xStart + k * xStep`, `y = yStart + j * yStep`.
struct Adam7Pass {
    let xStart: Int, yStart: Int, xStep: Int, yStep: Int

    static let passes: [Adam7Pass] = [
        Adam7Pass(xStart: 0, yStart: 0, xStep: 8, yStep: 8),
        Adam7Pass(xStart: 4, yStart: 0, xStep: 8, yStep: 8),
        Adam7Pass(xStart: 0, yStart: 4, xStep: 4, yStep: 8),
        Adam7Pass(xStart: 2, yStart: 0, xStep: 4, yStep: 4),
        Adam7Pass(xStart: 0, yStart: 2, xStep: 2, yStep: 4),
        Adam7Pass(xStart: 1, yStart: 0, xStep: 2, yStep: 2),
        Adam7Pass(xStart: 0, yStart: 1, xStep: 1, yStep: 2),
    ]

    /// The pass's width and height for an image of the given size (either may be 0).
    func size(width: Int, height: Int) -> (width: Int, height: Int) {
        let w = width > xStart ? (width - xStart + xStep - 1) / xStep : 0
        let h = height > yStart ? (height - yStart + yStep - 1) / yStep : 0
        return (w, h)
    }

    /// The whole image as a single pass, for non-interlaced files.
    static let whole = Adam7Pass(xStart: 0, yStart: 0, xStep: 1, yStep: 1)
}

import Imaging

/// A per-pixel yes/no mask, row by row: for the selfie segmenter, the pixels taken to be a
/// person (``ConfidenceMask/binaryMask(threshold:)``).
public struct BinaryMask: Sendable, Equatable {
    /// The mask's size in pixels.
    public let width: Int, height: Int
    /// `width * height` flags, row by row from the top; true where the mask is set.
    public let values: [Bool]

    /// Wraps `values`; throws unless there are `width * height` of them (both positive).
    public init(width: Int, height: Int, values: [Bool]) throws(TaskError) {
        try checkMaskSize(width: width, height: height, count: values.count)
        self.init(uncheckedWidth: width, height: height, values: values)
    }

    init(uncheckedWidth width: Int, height: Int, values: [Bool]) {
        self.width = width
        self.height = height
        self.values = values
    }

    /// Whether the pixel at column `x`, row `y` is set (both must be inside the mask).
    public subscript(x: Int, y: Int) -> Bool {
        values[maskIndex(x: x, y: y, width: width, height: height)]
    }

    /// How many pixels are set.
    public var count: Int { values.reduce(0) { $0 + ($1 ? 1 : 0) } }

    /// The share of pixels set, 0...1.
    public var fraction: Float { Float(count) / Float(values.count) }

    /// The smallest rectangle holding every set pixel (pixel edges: right and bottom are one
    /// past the last set column and row), nil when none is set.
    public var boundingBox: PixelRect? {
        var left = width, top = height, right = -1, bottom = -1
        for y in 0..<height {
            for x in 0..<width where values[y * width + x] {
                left = min(left, x)
                right = max(right, x)
                top = min(top, y)
                bottom = max(bottom, y)
            }
        }
        guard right >= 0 else { return nil }
        return PixelRect(left: Float(left), top: Float(top), right: Float(right + 1), bottom: Float(bottom + 1))
    }

    /// The mask as an 8-bit gray image: 255 where set, 0 elsewhere.
    public func grayImage() -> Image {
        // Width, height and the pixel count were checked when the mask was made.
        try! Image(width: width, height: height, pixelLayout: .gray, pixels: values.map { $0 ? 255 : 0 })
    }
}

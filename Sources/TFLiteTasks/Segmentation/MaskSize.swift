/// Throws unless a `width` x `height` mask (both positive) has `count` values: what every
/// mask's initialiser checks of what it is given.
func checkMaskSize(width: Int, height: Int, count: Int) throws(TaskError) {
    guard width > 0, height > 0, count == width * height else {
        throw .invalidFormat("a \(width)x\(height) mask needs \(width)x\(height) values, got \(count)")
    }
}

/// Where a mask's pixel at column `x`, row `y` is in its row-by-row values (both must be
/// inside the `width` x `height` mask).
func maskIndex(x: Int, y: Int, width: Int, height: Int) -> Int {
    precondition(x >= 0 && x < width && y >= 0 && y < height, "(\(x), \(y)) is outside the \(width)x\(height) mask")
    return y * width + x
}

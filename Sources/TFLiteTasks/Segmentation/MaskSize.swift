/// Throws unless a `width` x `height` mask (both positive) has `count` values: what every
/// mask's initialiser checks of what it is given.
func checkMaskSize(width: Int, height: Int, count: Int) throws(TaskError) {
    guard width > 0, height > 0, count == width * height else {
        throw .invalidFormat("a \(width)x\(height) mask needs \(width)x\(height) values, got \(count)")
    }
}

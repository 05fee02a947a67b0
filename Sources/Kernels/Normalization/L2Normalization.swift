/// Float L2_NORMALIZATION over the last axis: `x / max(sqrt(sum x^2), epsilon)` per row, as
/// TFLite's reference kernel (epsilon 1e-6).
public enum L2Normalization {
    /// Normalises `rows` rows of `depth` values.
    public static func apply(input: UnsafePointer<Float>, rows: Int, depth: Int, epsilon: Float = 1e-6,
                             output: UnsafeMutablePointer<Float>) {
        for r in 0..<rows {
            let x = input + r * depth, y = output + r * depth
            var sumSquares: Float = 0
            for i in 0..<depth { sumSquares += x[i] * x[i] }
            let norm = Swift.max(sumSquares.squareRoot(), epsilon)
            for i in 0..<depth { y[i] = x[i] / norm }
        }
    }
}

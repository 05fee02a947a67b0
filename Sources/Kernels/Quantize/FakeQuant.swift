/// FAKE_QUANT: float values rounded to the grid an 8-bit (or `bits`-bit) quantisation of
/// [min, max] would give, and back to float. The range is first nudged so that zero lies on
/// the grid, and the arithmetic (a reciprocal scale, rounding half away from zero) follows
/// TensorFlow's FakeQuantWithMinMaxArgs, so results are bit-identical to LiteRT's.
public enum FakeQuant {
    public struct Grid: Sendable, Equatable {
        public let scale: Float
        public let min: Float
        public let max: Float
    }

    /// The nudged grid for [min, max] over the integers 0...(2^bits - 1).
    public static func grid(min: Float, max: Float, bits: Int) -> Grid {
        let quantMin: Float = 0, quantMax = Float((1 << bits) - 1)
        let scale = (max - min) / (quantMax - quantMin)
        let zeroFromMin = quantMin - min / scale
        let zero: Float = zeroFromMin < quantMin ? quantMin : zeroFromMin > quantMax ? quantMax : zeroFromMin.rounded(.toNearestOrAwayFromZero)
        return Grid(scale: scale, min: (quantMin - zero) * scale, max: (quantMax - zero) * scale)
    }

    public static func run(_ grid: Grid, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, count: Int) {
        let inverse = 1 / grid.scale
        for i in 0..<count {
            let clamped = Swift.min(grid.max, Swift.max(grid.min, input[i]))
            output[i] = ((clamped - grid.min) * inverse).rounded(.toNearestOrAwayFromZero) * grid.scale + grid.min
        }
    }
}

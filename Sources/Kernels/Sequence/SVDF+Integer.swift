/// SVDF (a fully connected layer factored into a feature and a time filter, with a memory of
/// past feature activations) on int8 activations, operation for operation as LiteRT's
/// `EvalIntegerSVDF` (int16 memory and time weights): the memory shifts one step, each
/// filter's feature product is rescaled into the memory's scale, each filter's time product
/// over the memory is summed per unit across the rank, the bias is added and the sum
/// requantised to int8. The int8 memory and time weights that only TFLite Micro runs follow
/// its `EvalIntegerSvdfReference`, which also honours the memory's zero point.
public enum SVDFInteger {
    /// Sizes and the two rescalings, fixed at prepare.
    public struct Configuration: Sendable {
        /// Batch entries, input features, filters (units * rank), rank and memory length.
        public var batch: Int, inputSize: Int, filters: Int, rank: Int, memory: Int
        /// Input scale * feature weight scale / memory scale, and memory scale * time weight
        /// scale / output scale.
        public var featureMultiplier: QuantizedMultiplier, outputMultiplier: QuantizedMultiplier
        /// The input's and the output's zero points, and the memory's (0 for an int16 memory,
        /// which LiteRT treats as symmetric whatever the model says).
        public var inputZeroPoint: Int32, outputZeroPoint: Int32, stateZeroPoint: Int32

        /// Creates a configuration.
        public init(batch: Int, inputSize: Int, filters: Int, rank: Int, memory: Int,
                    featureMultiplier: QuantizedMultiplier, outputMultiplier: QuantizedMultiplier,
                    inputZeroPoint: Int32, outputZeroPoint: Int32, stateZeroPoint: Int32) {
            self.batch = batch; self.inputSize = inputSize; self.filters = filters; self.rank = rank
            self.memory = memory; self.featureMultiplier = featureMultiplier; self.outputMultiplier = outputMultiplier
            self.inputZeroPoint = inputZeroPoint; self.outputZeroPoint = outputZeroPoint
            self.stateZeroPoint = stateZeroPoint
        }

        /// Units per batch entry (the output's width).
        public var units: Int { filters / rank }
        /// Scratch int32 values `run` needs: one per filter and batch entry.
        public var scratchCount: Int { batch * filters }
    }

    /// Runs one step. `state` (`[batch, filters * memory]`, each filter's memory contiguous,
    /// oldest first) is updated in place. `featureWeights` is `[filters, inputSize]`,
    /// `timeWeights` `[filters, memory]`, `bias` `[units]` or nil.
    /// `State` (int8 or int16) is the type of both the memory and the time weights.
    public static func run<State: FixedWidthInteger & SignedInteger>(
        _ c: Configuration, input: UnsafePointer<Int8>, featureWeights: UnsafePointer<Int8>,
        timeWeights: UnsafePointer<State>, bias: UnsafePointer<Int32>?, state: UnsafeMutablePointer<State>,
        output: UnsafeMutablePointer<Int8>, scratch: UnsafeMutablePointer<Int32>) {
        let total = c.batch * c.filters * c.memory
        // The whole memory moves one step towards the start; each filter's newest slot (its
        // last) is then overwritten, so what crosses a filter boundary never survives.
        if total > 1 { state.update(from: state + 1, count: total - 1) }
        for b in 0..<c.batch {
            let x = input + b * c.inputSize
            for f in 0..<c.filters {
                let row = featureWeights + f * c.inputSize
                var dot: Int32 = 0
                for k in 0..<c.inputSize { dot &+= Int32(row[k]) &* (Int32(x[k]) &- c.inputZeroPoint) }
                let scaled = State(clamping: c.featureMultiplier.apply(dot))
                state[(b * c.filters + f) * c.memory + c.memory - 1] =
                    State(truncatingIfNeeded: Int32(scaled) &+ c.stateZeroPoint)
            }
        }
        for b in 0..<c.batch {
            for f in 0..<c.filters {
                let memory = state + (b * c.filters + f) * c.memory, weights = timeWeights + f * c.memory
                var dot: Int32 = 0
                for m in 0..<c.memory { dot &+= Int32(weights[m]) &* (Int32(memory[m]) &- c.stateZeroPoint) }
                scratch[b * c.filters + f] = dot
            }
        }
        let units = c.units
        for b in 0..<c.batch {
            for u in 0..<units {
                var sum: Int32 = 0
                for r in 0..<c.rank { sum &+= scratch[(b * units + u) * c.rank + r] }
                if let bias { sum &+= bias[u] }
                output[b * units + u] = Int8(clamping: c.outputMultiplier.apply(sum) &+ c.outputZeroPoint)
            }
        }
    }
}

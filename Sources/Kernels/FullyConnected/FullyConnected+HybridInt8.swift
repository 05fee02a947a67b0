extension FullyConnected.Hybrid {
    /// Hybrid FULLY_CONNECTED (float input and output, int8 weights), as TFLite's reference
    /// hybrid path: each batch row is quantised to int8 on the fly; the output starts at the bias
    /// (or 0) and gets `dot * scale` added in float, with `scale` the row's input scale times the
    /// per-tensor weight scale, or times the channel's scale for per-channel weights; then the
    /// activation clamp. With asymmetric inputs the row offset times the weight row sum is
    /// subtracted from the dot product first.
    ///
    /// - Parameters:
    ///   - filterScales: one scale (per-tensor) or one per output channel.
    ///   - filter: `[outputDepth, inputDepth]` int8 weights, or packed int4 ones.
    ///   - scratch: `hybridScratchCount(batches: batches, batchSize: inputDepth)` int8 values for
    ///     the quantised input.
    public static func reference(
        filterScales: [Float], activation: ActivationRange<Float>, asymmetricInputs: Bool,
        input: UnsafePointer<Float>, batches: Int, inputDepth: Int,
        filter: HybridWeights, outputDepth: Int,
        bias: UnsafePointer<Float>?,
        output: UnsafeMutablePointer<Float>,
        scratch: UnsafeMutablePointer<Int8>
    ) {
        func run(_ weightRow: (_ channel: Int, _ batch: Int) -> UnsafePointer<Int8>) {
            hybridFullyConnected(filterScales: filterScales, activation: activation, asymmetricInputs: asymmetricInputs, input: input,
                                 batches: batches, inputDepth: inputDepth, outputDepth: outputDepth, bias: bias, output: output,
                                 scratch: scratch, weightRow: weightRow)
        }
        switch filter {
        case .int8(let weights):
            run { oc, _ in weights + oc * inputDepth }
        case .int4(let packed):
            withUnsafeTemporaryAllocation(of: Int8.self, capacity: max(inputDepth, 1)) { row in
                run { oc, b in
                    // Rows are widened once, for the first batch, and reused for the others.
                    if b == 0 {
                        for d in 0..<inputDepth { row[d] = PackedInt4.value(packed, at: oc * inputDepth + d) }
                    }
                    return UnsafePointer(row.baseAddress!)
                }
            }
        }
    }

    /// The weights of a hybrid FULLY_CONNECTED, `[outputDepth, inputDepth]`, one scale or one per
    /// channel.
    public enum HybridWeights {
        /// int8 values.
        case int8(UnsafePointer<Int8>)
        /// Packed int4 values (``PackedInt4``), as LiteRT's reference kernel runs them: each weight
        /// row is widened to int8 in a row-sized buffer as it is reached, never the whole matrix.
        case int4(UnsafePointer<UInt8>)
    }
}

/// The hybrid loop over output channels (outer) and batches (inner); `weightRow(oc, b)` gives
/// channel `oc`'s int8 weights, asked once per batch.
@inline(__always)
private func hybridFullyConnected(
    filterScales: [Float], activation: ActivationRange<Float>, asymmetricInputs: Bool,
    input: UnsafePointer<Float>, batches: Int, inputDepth: Int, outputDepth: Int,
    bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Int8>,
    weightRow: (_ channel: Int, _ batch: Int) -> UnsafePointer<Int8>
) {
    let scales = quantizeHybridBatches(input, batches: batches, batchSize: inputDepth, asymmetric: asymmetricInputs, into: scratch)
    let perChannel = filterScales.count > 1
    for oc in 0..<outputDepth {
        for b in 0..<batches {
            let weights = weightRow(oc, b)
            let row = scratch + b * inputDepth
            // TFLite folds a per-tensor weight scale into the batch scale before the products.
            let batchScale = perChannel ? scales[b].scale : scales[b].scale * filterScales[0]
            var dot = int8DotProduct(weights, row, count: inputDepth)
            if asymmetricInputs {
                var rowSum: Int32 = 0
                for d in 0..<inputDepth { rowSum &+= Int32(weights[d]) }
                dot &-= rowSum &* scales[b].offset
            }
            let scale = perChannel ? batchScale * filterScales[oc] : batchScale
            let start: Float = bias?[oc] ?? 0
            output[b * outputDepth + oc] = activation.clamp(start + Float(dot) * scale)
        }
    }
}

/// FULLY_CONNECTED with float input and output and blockwise int4 weights, as LiteRT's
/// `EvalBlockwise4Bit`: each input row is quantised to int8 asymmetrically (its own scale and
/// zero point); each block's integer dot product is scaled by the block's scale and summed in
/// float; the zero point's share (zero point times ``BlockwiseInt4Weights/scaledBlockSums``)
/// is subtracted, the sum multiplied by the row's input scale, and the bias added. Then the
/// fused activation, which LiteRT's kernel leaves out (converters fuse none on these nodes).
extension FullyConnected {
    /// Int8 scratch the blockwise kernels need: one quantised copy of the input.
    public static func blockwiseInt4ScratchBytes(batches: Int, inputDepth: Int) -> Int { batches * inputDepth }
}

extension FullyConnected.BlockwiseInt4 {
    /// The reference loop, value by value.
    public static func reference(weights w: BlockwiseInt4Weights, input: UnsafePointer<Float>, batches: Int,
                                 bias: UnsafePointer<Float>?, activation: ActivationRange<Float>,
                                 output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Int8>) {
        let depth = w.columns, blocks = w.blocksPerRow
        for b in 0..<batches {
            let q = scratch + b * depth
            let inputScale = asymmetricQuantizeFloats(input + b * depth, count: depth, into: q)
            for r in 0..<w.rows {
                var sum: Float = 0
                for k in 0..<blocks {
                    var dot: Int32 = 0
                    for j in 0..<w.blockSize {
                        let c = k * w.blockSize + j
                        dot &+= Int32(q[c]) &* Int32(PackedInt4.value(w.packed, at: r * depth + c))
                    }
                    sum += Float(dot) * w.scales[r * blocks + k]
                }
                output[b * w.rows + r] = FullyConnected.blockwiseOutput(sum, row: r, weights: w, inputScale: inputScale,
                                                                        bias: bias, activation: activation)
            }
        }
    }
}

extension FullyConnected {
    /// The float steps after the block sums, shared by every variant so they round alike.
    @inline(__always)
    public static func blockwiseOutput(_ blockSum: Float, row r: Int, weights w: BlockwiseInt4Weights, inputScale: HybridInputScale,
                                       bias: UnsafePointer<Float>?, activation: ActivationRange<Float>) -> Float {
        var y = blockSum - Float(inputScale.offset) * w.scaledBlockSums[r]
        y *= inputScale.scale
        if let bias { y += bias[r] }
        return activation.clamp(y)
    }
}

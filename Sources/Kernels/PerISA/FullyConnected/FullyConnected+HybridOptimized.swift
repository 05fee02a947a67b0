#if TFLITE_ISA_MODULE
import Kernels
#endif
/// A hybrid FULLY_CONNECTED (float activations, constant int8 weights) prepared for the int8
/// dot products: each invocation quantises its rows as the reference does, takes four output
/// channels per pass over a row with this variant's dot product, and finishes each sum in the
/// reference's float arithmetic, so results equal `FullyConnected.Hybrid.reference` exactly.
/// The weights stay in the model and are passed at run time.
struct PreparedHybridFullyConnected: Sendable {
    let batches: Int
    let inputDepth: Int
    let outputDepth: Int
    /// One scale (per-tensor) or one per output channel.
    let filterScales: [Float]
    /// The sum of each output channel's weights: the dot product adds
    /// ``int8DotProduct4InputBias`` times it, and an asymmetric input's zero point takes off as
    /// much again.
    let weightSums: [Int32]
    let activation: ActivationRange<Float>
    /// Quantise the rows asymmetrically (the node's `asymmetric_quantize_inputs`).
    let asymmetricInputs: Bool

    init(filter: UnsafePointer<Int8>, batches: Int, inputDepth: Int, outputDepth: Int, filterScales: [Float],
         activation: ActivationRange<Float>, asymmetricInputs: Bool) {
        self.batches = batches
        self.inputDepth = inputDepth
        self.outputDepth = outputDepth
        self.filterScales = filterScales
        weightSums = int8RowSums(filter, count: outputDepth, length: inputDepth)
        self.activation = activation
        self.asymmetricInputs = asymmetricInputs
    }

    /// Bytes of scratch space: the quantised rows, then their scales.
    var scratchBytes: Int { hybridScratchCount(batches: batches, batchSize: inputDepth) }
}

extension FullyConnected.Hybrid {
    /// Optimised hybrid FULLY_CONNECTED, bit-exact with `FullyConnected.Hybrid.reference`: the
    /// rows quantised a vector at a time, then output channels in groups of four split across
    /// `pool`'s threads (nil: the calling thread).
    ///
    /// - Parameters:
    ///   - filter: the `[outputDepth, inputDepth]` int8 weights `prepared` was made from.
    ///   - scratch: `prepared.scratchBytes` bytes.
    static func optimized(_ prepared: PreparedHybridFullyConnected, input: UnsafePointer<Float>, filter: UnsafePointer<Int8>,
                          bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Int8>,
                          pool: ThreadPool?) {
        let depth = prepared.inputDepth
        let scales = hybridBatchScales(in: scratch, batches: prepared.batches, batchSize: depth)
        for b in 0..<prepared.batches {
            scales[b] = HybridInputQuantizer.quantize(input + b * depth, count: depth, asymmetric: prepared.asymmetricInputs,
                                                      into: scratch + b * depth)
        }
        forEachChannelQuadRange(outputDepth: prepared.outputDepth, pool: pool,
                                work: prepared.batches * prepared.outputDepth * depth) { channels in
            hybridChannels(prepared, channels: channels, filter: filter, rows: scratch, scales: scales, bias: bias, output: output)
        }
    }
}

/// Output channels `channels` of every row of ``FullyConnected/Hybrid/optimized(_:input:bias:output:scratch:pool:)``.
private func hybridChannels(_ p: PreparedHybridFullyConnected, channels: Range<Int>, filter: UnsafePointer<Int8>,
                            rows: UnsafePointer<Int8>,
                            scales: UnsafePointer<HybridInputScale>, bias: UnsafePointer<Float>?,
                            output: UnsafeMutablePointer<Float>) {
    let (depth, units) = (p.inputDepth, p.outputDepth)
    let perChannel = p.filterScales.count > 1
    for b in 0..<p.batches {
        let row = rows + b * depth, out = output + b * units
        // The reference's arithmetic: the sum of `w * (x - zeroPoint)`, and the batch scale
        // times the channel's (or the one) weight scale, added to the bias.
        let correction = scales[b].sumCorrection(inputBias: int8DotProduct4InputBias)
        let batchScale = perChannel ? scales[b].scale : scales[b].scale * p.filterScales[0]
        @inline(__always) func finish(_ sum: Int32, _ oc: Int) {
            let dot = sum &+ correction &* p.weightSums[oc]
            let scale = perChannel ? batchScale * p.filterScales[oc] : batchScale
            out[oc] = p.activation.clamp((bias?[oc] ?? 0) + Float(dot) * scale)
        }
        int8ChannelDotProducts(row, filter: filter, depth: depth, channels: channels, finish)
    }
}

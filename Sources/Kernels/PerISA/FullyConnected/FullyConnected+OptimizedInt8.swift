#if TFLITE_ISA_MODULE
import Kernels
#endif
/// An int8 FULLY_CONNECTED prepared for the optimised path: the input zero-point correction
/// folded into the bias (`bias + (inputOffset - int8DotProduct4InputBias) * sum(weights row)`),
/// so each output is one int8 dot product plus the shared requantisation. Built once at prepare (the weights stay where
/// they are); results equal `FullyConnected.Quantized.reference` exactly.
struct PreparedInt8FullyConnected: Sendable {
    /// The reference parameters.
    let params: QuantizedFullyConnectedParams
    /// Elements per input row.
    let inputDepth: Int
    /// Output channels.
    let outputDepth: Int
    /// Bias with the input offset folded in.
    let foldedBias: [Int32]

    /// Folds the bias. Requires symmetric weights (`filterOffset == 0`).
    init(_ params: QuantizedFullyConnectedParams, filter: UnsafePointer<Int8>, inputDepth: Int, outputDepth: Int,
         bias: UnsafePointer<Int32>?) {
        precondition(params.filterOffset == 0, "the optimised int8 path expects symmetric weights")
        self.params = params
        self.inputDepth = inputDepth
        self.outputDepth = outputDepth
        self.foldedBias = int8RowSums(filter, count: outputDepth, length: inputDepth).enumerated().map { oc, sum in
            (bias?[oc] ?? 0) &+ (params.inputOffset &- int8DotProduct4InputBias) &* sum
        }
    }
}

extension FullyConnected.Quantized {
    /// Optimised int8 FULLY_CONNECTED: four output channels per pass over each input row
    /// (``int8ChannelDotProducts(_:filter:depth:channels:_:)``, every sum from the same dot
    /// product, whose input bias the folded bias assumes), then the shared requantisation.
    /// Output channels are split across `pool`'s threads in groups of four (nil: the calling
    /// thread) when the layer's work pays for it.
    static func optimized(_ prepared: PreparedInt8FullyConnected, input: UnsafePointer<Int8>, batches: Int,
                          filter: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>,
                          pool: ThreadPool? = nil) {
        forEachChannelQuadRange(outputDepth: prepared.outputDepth, pool: pool,
                                work: batches * prepared.outputDepth * prepared.inputDepth) { channels in
            fullyConnectedInt8Channels(prepared, channels: channels, input: input, batches: batches, filter: filter,
                                       output: output)
        }
    }
}

/// One thread's share of ``FullyConnected/Quantized/optimized``: output channels `channels` of every batch.
private func fullyConnectedInt8Channels(_ prepared: PreparedInt8FullyConnected, channels: Range<Int>, input: UnsafePointer<Int8>,
                                        batches: Int, filter: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>) {
    let p = prepared.params
    let (depth, units) = (prepared.inputDepth, prepared.outputDepth)
    let perChannel = p.outputMultipliers.count > 1
    func finish(_ sum: Int32, _ oc: Int) -> Int8 {
        let acc = p.outputMultipliers[perChannel ? oc : 0].apply(sum &+ prepared.foldedBias[oc], rounding: p.rounding) &+ p.outputOffset
        return Int8(clampedQuantized: p.activation.clamp(acc))
    }
    for b in 0..<batches {
        let row = input + b * depth
        let out = output + b * units
        int8ChannelDotProducts(row, filter: filter, depth: depth, channels: channels) { out[$1] = finish($0, $1) }
    }
}

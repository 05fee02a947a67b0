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
    /// Optimised int8 FULLY_CONNECTED: four output channels per pass over each input row, int32
    /// SIMD accumulation, then the shared requantisation. A last group of fewer than four channels
    /// takes four rows all the same, so that every channel comes from the same dot product (whose
    /// input bias the folded bias assumes). Output channels are split across
    /// `pool`'s threads in groups of four (nil: the calling thread).
    static func optimized(_ prepared: PreparedInt8FullyConnected, input: UnsafePointer<Int8>, batches: Int,
                          filter: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>,
                          pool: ThreadPool? = nil) {
        let groups = (prepared.outputDepth + 3) / 4
        // The closure goes straight to `parallelFor` (non-escaping, so its context stays on the
        // stack); a closure stored in a local would be allocated at every call.
        if let pool, pool.threadCount > 1 {
            pool.parallelFor(count: groups, chunks: pool.threadCount) { _, range in
                fullyConnectedInt8Channels(prepared, channels: (range.lowerBound * 4)..<min(range.upperBound * 4, prepared.outputDepth),
                                           input: input, batches: batches, filter: filter, output: output)
            }
        } else {
            fullyConnectedInt8Channels(prepared, channels: 0..<prepared.outputDepth, input: input, batches: batches,
                                       filter: filter, output: output)
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
        var oc = channels.lowerBound
        while oc + 4 <= channels.upperBound {
            let sums = int8DotProduct4(row, rows: filter + oc * depth, rowStride: depth, count: depth)
            for j in 0..<4 { out[oc + j] = finish(sums[j], oc + j) }
            oc += 4
        }
        let left = channels.upperBound - oc
        if left > 0 && channels.upperBound >= 4 {
            // The four rows that end at the last channel; the first `4 - left` are channels
            // already done (here or on another thread), and their sums are dropped.
            let sums = int8DotProduct4(row, rows: filter + (channels.upperBound - 4) * depth, rowStride: depth, count: depth)
            for j in 0..<left { out[oc + j] = finish(sums[4 - left + j], oc + j) }
        } else if left > 0 {
            // Fewer than four channels in all: each row four times over.
            for j in 0..<left {
                out[oc + j] = finish(int8DotProduct4(row, rows: filter + (oc + j) * depth, rowStride: 0, count: depth)[0], oc + j)
            }
        }
    }
}

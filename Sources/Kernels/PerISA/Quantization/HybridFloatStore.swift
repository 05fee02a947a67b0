#if TFLITE_ISA_MODULE
import Kernels
#endif
/// The constants of a hybrid convolution's float output, per group of ``int8LaneCount``
/// channels (the last group padded with zeros): each channel's weight scale and the sum of its
/// weights, which turns the kernel's sums of raw inputs into sums of `input - zeroPoint` once
/// the zero point of an invocation's input is known. Built once at prepare.
struct HybridOutputConstants: Sendable {
    /// Weight scales, one per channel, padded to whole groups.
    let filterScales: [Float]
    /// Sums of each channel's weights, padded to whole groups.
    let weightSums: [Int32]
    /// The fused activation clamp.
    let activation: ActivationRange<Float>
    /// How the two scales meet the sum (see ``HybridScaleOrder``).
    let order: HybridScaleOrder

    init(filterScales: [Float], weightSums: [Int32], activation: ActivationRange<Float>, order: HybridScaleOrder) {
        let padded = (filterScales.count + int8LaneCount - 1) / int8LaneCount * int8LaneCount
        self.filterScales = filterScales + [Float](repeating: 0, count: padded - filterScales.count)
        self.weightSums = weightSums + [Int32](repeating: 0, count: padded - weightSums.count)
        self.activation = activation
        self.order = order
    }

    /// Runs `body` with the store for one input batch quantised as `input`, whose values the
    /// kernel read with `inputBias` added (128 for sign-flipped bytes), adding `bias` (one float
    /// per channel, or nil) to the scaled sums.
    @inline(__always)
    func withStore<R>(input: HybridInputScale, inputBias: Int32, bias: UnsafePointer<Float>?,
                      _ body: (HybridFloatStore) -> R) -> R {
        filterScales.withUnsafeBytes { scales in weightSums.withUnsafeBytes { sums in
            body(HybridFloatStore(filterScales: scales.baseAddress!, weightSums: sums.baseAddress!, bias: bias,
                                  correction: input.sumCorrection(inputBias: inputBias), inputScale: input.scale, order: order,
                                  minimum: activation.min, maximum: activation.max))
        }}
    }
}

extension HybridInputScale {
    /// What a channel's weight sum is multiplied by and added to a sum of `w * (x + inputBias)`
    /// (what an int8 kernel computes, `inputBias` being what it adds to every input value) to
    /// make it the reference's sum of `w * (x - zeroPoint)`: `-(zeroPoint + inputBias)`.
    func sumCorrection(inputBias: Int32) -> Int32 { 0 &- (offset &+ inputBias) }
}

/// In which order a hybrid kernel multiplies its int32 sum by the weight and input scales:
/// LiteRT's reference kernels differ, and float multiplication is not associative.
enum HybridScaleOrder: Sendable {
    /// `(sum * filterScale) * inputScale` (CONV_2D).
    case filterThenInput
    /// `sum * (filterScale * inputScale)` (DEPTHWISE_CONV_2D).
    case combinedScale
}

/// The output stage of a hybrid convolution: each int32 sum of raw (or offset) input bytes with
/// the weights is corrected to the sum of `input - zeroPoint`, converted to float, scaled by
/// the channel's weight scale and the batch's input scale, given its bias and clamped: the
/// reference hybrid kernels' arithmetic, in the same order, so the results are the same floats.
struct HybridFloatStore: Int8SumsStore {
    let filterScales: UnsafeRawPointer
    let weightSums: UnsafeRawPointer
    /// One float per output channel, or nil; read only for the channels stored.
    let bias: UnsafePointer<Float>?
    /// ``HybridInputScale/sumCorrection(inputBias:)``: times a channel's weight sum, the
    /// correction to its sum.
    let correction: Int32
    let inputScale: Float
    let order: HybridScaleOrder
    let minimum: Float
    let maximum: Float

    @inline(never)
    func store(rows: UnsafeRawPointer, sumStride: Int, rowCount: Int, group: Int,
               to out: UnsafeMutablePointer<Float>, outStride: Int, count: Int) {
        let lanes = int8LaneCount, first = group &* lanes
        let scales = filterScales.loadUnaligned(fromByteOffset: first &* 4, as: FloatLanes.self)
        let combined = scales * inputScale
        let corrections = weightSums.loadUnaligned(fromByteOffset: first &* 4, as: Int32Lanes.self) &* correction
        var biases = FloatLanes()
        if let bias {
            if count == lanes {
                biases = UnsafeRawPointer(bias + first).loadUnaligned(as: FloatLanes.self)
            } else {
                for j in 0..<count { biases[j] = bias[first &+ j] }
            }
        }
        for r in 0..<rowCount {
            let sums = rows.loadUnaligned(fromByteOffset: r &* sumStride, as: Int32Lanes.self) &+ corrections
            var value = floatLanes(sums)
            switch order {
            case .filterThenInput: value = value * scales * inputScale
            case .combinedScale: value = value * combined
            }
            if bias != nil { value += biases }
            value = value.clampedLanes(minimum, maximum)
            let o = out + r &* outStride
            if count == lanes {
                UnsafeMutableRawPointer(o).storeBytes(of: value, as: FloatLanes.self)
            } else {
                for j in 0..<count { o[j] = value[j] }
            }
        }
    }
}

/// Each int32 lane converted to float (`cvtdq2ps`), spelled lane by lane for the concrete width.
@inline(__always)
private func floatLanes(_ v: Int32Lanes) -> FloatLanes {
    var r = FloatLanes()
    for i in 0..<int8LaneCount { r[i] = Float(v[i]) }
    return r
}

/// The int8 scratch values a hybrid kernel (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED) needs
/// for `batches` batches of `batchSize` inputs: their quantised copy, then room for the
/// per-batch scales (``quantizeHybridBatches(_:batches:batchSize:asymmetric:into:)`` keeps them
/// there so that quantising at every invoke allocates nothing).
public func hybridScratchCount(batches: Int, batchSize: Int) -> Int {
    batches * batchSize + MemoryLayout<HybridInputScale>.alignment - 1 + batches * MemoryLayout<HybridInputScale>.stride
}

/// ``hybridScratchCount(batches:batchSize:)`` for a convolution's NHWC input.
public func hybridScratchCount(_ input: NHWC) -> Int {
    hybridScratchCount(batches: input.batch, batchSize: input.height * input.width * input.channels)
}

/// Where a hybrid kernel's scratch (``hybridScratchCount(batches:batchSize:)`` values) keeps
/// the per-batch input scales: after the `batches * batchSize` quantised inputs, aligned.
public func hybridBatchScales(in scratch: UnsafeMutablePointer<Int8>, batches: Int, batchSize: Int)
    -> UnsafeMutablePointer<HybridInputScale> {
    UnsafeMutableRawPointer(scratch + batches * batchSize).alignedUp(for: HybridInputScale.self)
        .bindMemory(to: HybridInputScale.self, capacity: batches)
}

/// The per-batch input scales of a hybrid kernel, stored in its scratch after the quantised input.
struct HybridBatchScales {
    let base: UnsafeMutablePointer<HybridInputScale>

    subscript(batch: Int) -> HybridInputScale { base[batch] }
}

/// Quantises each batch of a float NHWC input to int8 as TFLite's hybrid kernels do (one scale
/// per batch over all its pixels), returning the scales. `quantized` holds
/// ``hybridScratchCount(batches:batchSize:)`` values.
func quantizeHybridBatches(_ input: UnsafePointer<Float>, batches: Int, batchSize: Int, asymmetric: Bool,
                           into quantized: UnsafeMutablePointer<Int8>) -> HybridBatchScales {
    let scales = hybridBatchScales(in: quantized, batches: batches, batchSize: batchSize)
    for b in 0..<batches {
        scales[b] = asymmetric
            ? asymmetricQuantizeFloats(input + b * batchSize, count: batchSize, into: quantized + b * batchSize)
            : symmetricQuantizeFloats(input + b * batchSize, count: batchSize, into: quantized + b * batchSize)
    }
    return HybridBatchScales(base: scales)
}

extension ConvOperands<Float, Int8, Float, Float> {
    /// The input quantised batch by batch into `scratch` (one batch is `height * width * channels`
    /// inputs), as ``quantizeHybridBatches(_:batches:batchSize:asymmetric:into:)``.
    func quantizeInputBatches(asymmetric: Bool, into scratch: UnsafeMutablePointer<Int8>) -> HybridBatchScales {
        quantizeHybridBatches(input, batches: inputShape.batch, batchSize: inputShape.height * inputShape.width * inputShape.channels,
                              asymmetric: asymmetric, into: scratch)
    }
}

extension Conv2D.Hybrid {
    /// Hybrid CONV_2D with per-channel int8 weights, as TFLite's reference `HybridConvPerChannel`:
    /// each input batch is quantised to int8 on the fly, the int32 sum of
    /// `filter * (input - offset)` is scaled by `filterScale[c]` then the batch scale (in that
    /// order, in float), the float bias is added and the result clamped.
    ///
    /// - Parameters:
    ///   - filter: `[outputChannels, kernelHeight, kernelWidth, inputChannels / groups]`.
    ///   - bias: one float per output channel, or nil.
    ///   - scratch: `hybridScratchCount(batches: inputShape.batch, batchSize: H * W * C)` int8 values
    ///     for the quantised input.
    public static func reference(_ params: HybridConvParams, _ o: ConvOperands<Float, Int8, Float, Float>,
                                 scratch: UnsafeMutablePointer<Int8>) {
        let scales = o.quantizeInputBatches(asymmetric: params.asymmetricInputs, into: scratch)
        let g = params.geometry
        let inputShape = o.inputShape, filterShape = o.filterShape
        let inputDepth = inputShape.channels, filterDepth = filterShape.channels, outputDepth = o.outputShape.channels
        let filtersPerGroup = outputDepth / (inputDepth / filterDepth)
        o.outputShape.forEachElement { b, oy, ox, oc, index in
            let channelBase = (oc / filtersPerGroup) * filterDepth, offset = scales[b].offset
            var acc: Int32 = 0
            g.forEachTap(y: oy, x: ox, filter: filterShape, input: inputShape) { ky, kx, iy, ix in
                let x = scratch + (((b * inputShape.height + iy) * inputShape.width + ix) * inputDepth + channelBase)
                let w = o.filter + (((oc * filterShape.height + ky) * filterShape.width + kx) * filterDepth)
                for ic in 0..<filterDepth {
                    acc &+= Int32(w[ic]) &* (Int32(x[ic]) &- offset)
                }
            }
            var value = Float(acc) * params.filterScales[oc] * scales[b].scale
            if let bias = o.bias { value += bias[oc] }
            o.output[index] = params.activation.clamp(value)
        }
    }
}

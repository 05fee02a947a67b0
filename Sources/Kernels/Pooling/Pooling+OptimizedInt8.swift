extension Pooling.Quantized {
    /// AVERAGE_POOL_2D for int8, bit-exact with ``Pooling/Quantized/average(_:input:inputShape:output:outputShape:)``.
    ///
    /// The reference walks each output element's window once per channel, with the full index
    /// arithmetic for every input value, on one thread: a global pool over many channels (as
    /// efficientnet_lite0's 7x7 over 1,280) is then mostly index arithmetic. Here a window is
    /// summed for a block of ``averagePoolChannelBlock`` channels at a time, whole vectors of int8
    /// lanes per input pixel, and the output pixels and channel blocks are split across `pool`. The
    /// window and the rounded, clamped average are the reference's (``QuantizedPoolParams``).
    public static func averageOptimized(_ params: QuantizedPoolParams, input: UnsafePointer<Int8>, inputShape: NHWC,
                                        output: UnsafeMutablePointer<Int8>, outputShape: NHWC, pool: ThreadPool?) {
        let channels = outputShape.channels
        guard channels > 0 else { return }
        let blocks = (channels + averagePoolChannelBlock - 1) / averagePoolChannelBlock
        let pixels = outputShape.batch * outputShape.height * outputShape.width
        let work = pixels * channels * params.filterHeight * params.filterWidth
        ThreadPool.split(pool, count: pixels * blocks, work: work) { items in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: averagePoolChannelBlock) { sums in
                let base = sums.baseAddress!
                for item in items {
                    let pixel = item / blocks, c0 = item % blocks * averagePoolChannelBlock
                    let width = Swift.min(averagePoolChannelBlock, channels - c0)
                    let ox = pixel % outputShape.width, oy = pixel / outputShape.width % outputShape.height
                    let b = pixel / (outputShape.width * outputShape.height)
                    let ys = params.windowRows(outputRow: oy, inputHeight: inputShape.height)
                    let xs = params.windowColumns(outputColumn: ox, inputWidth: inputShape.width)
                    base.update(repeating: 0, count: width)
                    for iy in ys {
                        for ix in xs {
                            let p = input + ((b * inputShape.height + iy) * inputShape.width + ix) * channels + c0
                            var j = 0
                            while j + int8LaneCount <= width {
                                let s = UnsafeMutableRawPointer(base + j)
                                s.storeBytes(of: s.loadUnaligned(as: Int32Lanes.self) &+ loadInt8AsInt32(p + j), as: Int32Lanes.self)
                                j += int8LaneCount
                            }
                            while j < width {
                                base[j] &+= Int32(p[j])
                                j += 1
                            }
                        }
                    }
                    let count = Int32(ys.count * xs.count), out = output + pixel * channels + c0
                    for j in 0..<width {
                        out[j] = Int8(clampedQuantized: params.clampedAverage(sum: base[j], count: count))
                    }
                }
            }
        }
    }
}

/// Channels summed together by ``Pooling/Quantized/averageOptimized(_:input:inputShape:output:outputShape:pool:)``:
/// whole vectors of ``int8LaneCount`` lanes on every build, and a stack buffer of 256 bytes.
let averagePoolChannelBlock = 64

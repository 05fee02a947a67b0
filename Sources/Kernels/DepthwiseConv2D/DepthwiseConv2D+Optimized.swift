extension DepthwiseConv2D {
    /// The optimised DEPTHWISE_CONV_2D for depth multiplier 1 (what MobileNets and the MediaPipe
    /// models use, any filter size, stride and dilation): each output pixel accumulates its
    /// in-bounds taps one at a time, eight channels per `SIMD8<Float>` step, reading input and
    /// filter in their native channel-innermost layout. Output rows are split across `pool`. Other multipliers run the
    /// reference loop.
    public static func optimized(params: DepthwiseConv2DParams,
                                 input: UnsafePointer<Float>, inputShape: NHWC,
                                 filter: UnsafePointer<Float>, filterShape: NHWC,
                                 bias: UnsafePointer<Float>?,
                                 output: UnsafeMutablePointer<Float>, outputShape: NHWC,
                                 pool: ThreadPool) {
        guard params.depthMultiplier == 1 else {
            reference(params: params, input: input, inputShape: inputShape, filter: filter,
                      filterShape: filterShape, bias: bias, output: output, outputShape: outputShape)
            return
        }
        let rows = outputShape.batch * outputShape.height
        pool.parallelFor(count: rows) { range in
            for row in range {
                channelVectorRow(row: row, params: params, input: input, inputShape: inputShape,
                                 filter: filter, filterShape: filterShape, bias: bias,
                                 output: output, outputShape: outputShape)
            }
        }
    }

    /// One output row (fixed batch and y) of the multiplier-1 fast path.
    static func channelVectorRow(row: Int, params: DepthwiseConv2DParams,
                                 input: UnsafePointer<Float>, inputShape: NHWC,
                                 filter: UnsafePointer<Float>, filterShape: NHWC,
                                 bias: UnsafePointer<Float>?,
                                 output: UnsafeMutablePointer<Float>, outputShape: NHWC) {
        let g = params.geometry
        let channels = outputShape.channels
        let b = row / outputShape.height, oy = row % outputShape.height
        let iy0 = oy * g.strideHeight - g.paddingHeight.before
        // The filter rows inside the input depend only on y.
        var fyStart = 0, fyEnd = filterShape.height
        while fyStart < fyEnd && iy0 + fyStart * g.dilationHeight < 0 { fyStart += 1 }
        while fyEnd > fyStart && iy0 + (fyEnd - 1) * g.dilationHeight >= inputShape.height { fyEnd -= 1 }
        let lo = params.activation.min, hi = params.activation.max
        let vectorChannels = channels / 8 * 8
        let inputBatch = input + b * inputShape.height * inputShape.width * channels
        for ox in 0..<outputShape.width {
            let ix0 = ox * g.strideWidth - g.paddingWidth.before
            var fxStart = 0, fxEnd = filterShape.width
            while fxStart < fxEnd && ix0 + fxStart * g.dilationWidth < 0 { fxStart += 1 }
            while fxEnd > fxStart && ix0 + (fxEnd - 1) * g.dilationWidth >= inputShape.width { fxEnd -= 1 }
            let out = output + ((b * outputShape.height + oy) * outputShape.width + ox) * channels
            // Taps outer, channels inner: each tap streams one contiguous input pixel and one
            // contiguous filter row into the output pixel, which stays in L1.
            if let bias { out.update(from: bias, count: channels) } else { out.update(repeating: 0, count: channels) }
            let dst = UnsafeMutableRawPointer(out)
            for fy in fyStart..<fyEnd {
                let iy = iy0 + fy * g.dilationHeight
                for fx in fxStart..<fxEnd {
                    let ix = ix0 + fx * g.dilationWidth
                    let x = inputBatch + (iy * inputShape.width + ix) * channels
                    let w = filter + (fy * filterShape.width + fx) * channels
                    let xr = UnsafeRawPointer(x), wr = UnsafeRawPointer(w)
                    var c = 0
                    while c < vectorChannels {
                        let acc = dst.loadUnaligned(fromByteOffset: c * 4, as: SIMD8<Float>.self)
                        let xv = xr.loadUnaligned(fromByteOffset: c * 4, as: SIMD8<Float>.self)
                        let wv = wr.loadUnaligned(fromByteOffset: c * 4, as: SIMD8<Float>.self)
                        dst.storeBytes(of: acc + xv * wv, toByteOffset: c * 4, as: SIMD8<Float>.self)
                        c += 8
                    }
                    while c < channels {
                        out[c] += x[c] * w[c]
                        c += 1
                    }
                }
            }
            var c = 0
            while c < vectorChannels {
                let v = dst.loadUnaligned(fromByteOffset: c * 4, as: SIMD8<Float>.self)
                dst.storeBytes(of: clampLanes(v, lo, hi), toByteOffset: c * 4, as: SIMD8<Float>.self)
                c += 8
            }
            while c < channels {
                out[c] = params.activation.clamp(out[c])
                c += 1
            }
        }
    }
}

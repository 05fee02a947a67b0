extension DepthwiseConv2D {
    /// The optimised DEPTHWISE_CONV_2D for depth multiplier 1 (what MobileNets and the MediaPipe
    /// models use, any filter size, stride and dilation): for each output pixel, eight channels
    /// at a time accumulate every in-bounds tap in a `SIMD8<Float>` register, reading input and
    /// filter in their native channel-innermost layout; interior pixels of 3x3 and 5x5 filters
    /// use unrolled taps. Output rows are split across `pool`. Other multipliers run the
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

    /// One output row (fixed batch and y) of the multiplier-1 fast path. Interior pixels of
    /// 3x3 and 5x5 filters without dilation take an unrolled path; border pixels, other sizes
    /// and dilations walk only their in-bounds taps.
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
        let rowInterior = fyStart == 0 && fyEnd == filterShape.height
        let unrolled = g.dilationHeight == 1 && g.dilationWidth == 1 && filterShape.height == filterShape.width
            && (filterShape.height == 3 || filterShape.height == 5)
        let inputRowStride = inputShape.width * channels
        let inputBatch = input + b * inputShape.height * inputRowStride
        for ox in 0..<outputShape.width {
            let ix0 = ox * g.strideWidth - g.paddingWidth.before
            var fxStart = 0, fxEnd = filterShape.width
            while fxStart < fxEnd && ix0 + fxStart * g.dilationWidth < 0 { fxStart += 1 }
            while fxEnd > fxStart && ix0 + (fxEnd - 1) * g.dilationWidth >= inputShape.width { fxEnd -= 1 }
            let out = output + ((b * outputShape.height + oy) * outputShape.width + ox) * channels
            if unrolled && rowInterior && fxStart == 0 && fxEnd == filterShape.width {
                // The window's top-left input pixel; taps are at fixed offsets from it.
                let origin = inputBatch + iy0 * inputRowStride + ix0 * channels
                if filterShape.height == 3 {
                    interiorPixel(size: 3, origin: origin, rowStride: inputRowStride, channels: channels,
                                  filter: filter, bias: bias, activation: params.activation, out: out)
                } else {
                    interiorPixel(size: 5, origin: origin, rowStride: inputRowStride, channels: channels,
                                  filter: filter, bias: bias, activation: params.activation, out: out)
                }
                continue
            }
            borderPixel(fy: fyStart..<fyEnd, fx: fxStart..<fxEnd, iy0: iy0, ix0: ix0, geometry: g,
                        input: inputBatch, inputWidth: inputShape.width, channels: channels,
                        filter: filter, filterWidth: filterShape.width, bias: bias,
                        activation: params.activation, out: out)
        }
    }

    /// One output pixel whose `size x size` window lies inside the input (no dilation). With
    /// `size` a literal at the call site, the tap loops unroll; each group of eight channels
    /// accumulates all taps in a register and is stored once. Offsets use wrapping arithmetic:
    /// prepare proved every tap is inside the input.
    @inline(__always)
    static func interiorPixel(size: Int, origin: UnsafePointer<Float>, rowStride: Int, channels: Int,
                              filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
                              activation: ActivationRange<Float>, out: UnsafeMutablePointer<Float>) {
        let lo = activation.min, hi = activation.max
        let rowBytes = rowStride &* 4, tapBytes = channels &* 4
        var c = 0
        while c &+ 8 <= channels {
            var acc = SIMD8<Float>(repeating: 0)
            if let bias { acc = UnsafeRawPointer(bias + c).loadUnaligned(as: SIMD8<Float>.self) }
            var xRow = UnsafeRawPointer(origin + c), w = UnsafeRawPointer(filter + c)
            for _ in 0..<size {
                var x = xRow
                for _ in 0..<size {
                    acc = acc + x.loadUnaligned(as: SIMD8<Float>.self) * w.loadUnaligned(as: SIMD8<Float>.self)
                    x += tapBytes
                    w += tapBytes
                }
                xRow += rowBytes
            }
            UnsafeMutableRawPointer(out + c).storeBytes(of: clampLanes(acc, lo, hi), as: SIMD8<Float>.self)
            c &+= 8
        }
        while c < channels {
            var acc = bias?[c] ?? 0
            var xRow = origin + c, w = filter + c
            for _ in 0..<size {
                var x = xRow
                for _ in 0..<size {
                    acc += x.pointee * w.pointee
                    x += channels
                    w += channels
                }
                xRow += rowStride
            }
            out[c] = activation.clamp(acc)
            c &+= 1
        }
    }

    /// One output pixel over its in-bounds taps `fy x fx`, any filter size and dilation.
    @inline(__always)
    static func borderPixel(fy: Range<Int>, fx: Range<Int>, iy0: Int, ix0: Int, geometry g: ConvGeometry,
                            input: UnsafePointer<Float>, inputWidth: Int, channels: Int,
                            filter: UnsafePointer<Float>, filterWidth: Int, bias: UnsafePointer<Float>?,
                            activation: ActivationRange<Float>, out: UnsafeMutablePointer<Float>) {
        let lo = activation.min, hi = activation.max
        var c = 0
        while c &+ 8 <= channels {
            var acc = SIMD8<Float>(repeating: 0)
            if let bias { acc = UnsafeRawPointer(bias + c).loadUnaligned(as: SIMD8<Float>.self) }
            for ty in fy {
                let iy = iy0 &+ ty &* g.dilationHeight
                for tx in fx {
                    let ix = ix0 &+ tx &* g.dilationWidth
                    let xv = UnsafeRawPointer(input + ((iy &* inputWidth &+ ix) &* channels &+ c)).loadUnaligned(as: SIMD8<Float>.self)
                    let wv = UnsafeRawPointer(filter + ((ty &* filterWidth &+ tx) &* channels &+ c)).loadUnaligned(as: SIMD8<Float>.self)
                    acc = acc + xv * wv
                }
            }
            UnsafeMutableRawPointer(out + c).storeBytes(of: clampLanes(acc, lo, hi), as: SIMD8<Float>.self)
            c &+= 8
        }
        while c < channels {
            var acc = bias?[c] ?? 0
            for ty in fy {
                let iy = iy0 &+ ty &* g.dilationHeight
                for tx in fx {
                    let ix = ix0 &+ tx &* g.dilationWidth
                    acc += input[(iy &* inputWidth &+ ix) &* channels &+ c] * filter[(ty &* filterWidth &+ tx) &* channels &+ c]
                }
            }
            out[c] = activation.clamp(acc)
            c &+= 1
        }
    }
}

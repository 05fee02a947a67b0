#if TFLITE_ISA_MODULE
import Kernels
#endif
extension DepthwiseConv2D {
    /// The optimised DEPTHWISE_CONV_2D for depth multiplier 1 (what MobileNets and the MediaPipe
    /// models use, any filter size, stride and dilation), reading input and filter in their
    /// native channel-innermost layout: groups of channels accumulate every tap in one vector
    /// register. Interior pixels of 3x3 and 5x5 filters run with the group's taps held in
    /// registers (``InteriorSpan``); border pixels walk their in-bounds taps one pixel at a time.
    /// Output rows are split across `pool`. Other multipliers run the reference loop.
    ///
    /// - Parameter scratch: ``scratchFloatCount(params:inputShape:filterShape:outputShape:threadCount:)``
    ///   floats for `pool`'s thread count; with them, a padded 3x3 or 5x5 layer of stride 1 first
    ///   copies its input into a zero-bordered image so that every output pixel takes the
    ///   interior path. Nil (or a count of 0) runs the border pixels one at a time instead.
    static func optimized(params: DepthwiseConv2DParams,
                          input: UnsafePointer<Float>, inputShape: NHWC,
                          filter: UnsafePointer<Float>, filterShape: NHWC,
                          bias: UnsafePointer<Float>?,
                          output: UnsafeMutablePointer<Float>, outputShape: NHWC,
                          scratch: UnsafeMutablePointer<Float>? = nil, pool: ThreadPool) {
        guard params.depthMultiplier == 1 else {
            reference(params: params, ConvOperands(input: input, inputShape: inputShape, filter: filter,
                      filterShape: filterShape, bias: bias, output: output, outputShape: outputShape))
            return
        }
        let rows = outputShape.batch * outputShape.height
        // Each multiply-add reads a vector of its own input and tap, where a GEMM's reuse a
        // loaded panel for eight rows: counted as ``ThreadPool/workPerElement`` units of the
        // pool's split threshold, like an elementwise op's. A 4x4x128 layer (18,432
        // multiply-adds, 1.6 us) then splits.
        let work = outputShape.elementCount * filterShape.height * filterShape.width * ThreadPool.workPerElement
        if let scratch, let padded = PaddedInput(params: params, inputShape: inputShape, filterShape: filterShape,
                                                 outputShape: outputShape) {
            // Copy and compute are one job: each thread copies the padded rows its output rows
            // read into an image of its own, so no row is written by two threads, and the small
            // layers that take this path hand work to the other thread once instead of twice.
            pool.parallelFor(count: rows, chunks: pool.chunks(forWork: work)) { thread, range in
                let image = scratch + thread * padded.floatCount
                padded.fill(rows: padded.rowsRead(byOutputRows: range, outputShape: outputShape), from: input, into: image)
                for row in range {
                    padded.outputRow(row, image: image, filter: filter, bias: bias, activation: params.activation,
                                     output: output, outputShape: outputShape)
                }
            }
            return
        }
        pool.parallelFor(count: rows, chunks: pool.chunks(forWork: work)) { _, range in
            for row in range {
                channelVectorRow(row: row, params: params, input: input, inputShape: inputShape,
                                 filter: filter, filterShape: filterShape, bias: bias,
                                 output: output, outputShape: outputShape)
            }
        }
    }

    /// Floats of scratch that ``optimized(params:input:inputShape:filter:filterShape:bias:output:outputShape:scratch:pool:)``
    /// uses, with a pool of `threadCount` threads, for their zero-bordered copies of the input;
    /// 0 when the layer is not a 3x3 or 5x5, undilated, stride-1, multiplier-1 layer or has too
    /// few border pixels to be worth it.
    static func scratchFloatCount(params: DepthwiseConv2DParams, inputShape: NHWC, filterShape: NHWC,
                                  outputShape: NHWC, threadCount: Int) -> Int {
        let image = PaddedInput(params: params, inputShape: inputShape, filterShape: filterShape, outputShape: outputShape)
        return (image?.floatCount ?? 0) * Swift.max(1, threadCount)
    }

    /// The input copied into a larger image with the padding as explicit zeros, for padded 3x3
    /// and 5x5 layers of stride 1: the copy costs one pass over the input, while border pixels
    /// taken one at a time cost a slow path for up to half the pixels of the small late layers
    /// (a 5x5 layer with 14x14 outputs has 96 border pixels of 196).
    struct PaddedInput {
        let input: NHWC
        let size: Int
        let strideHeight: Int, strideWidth: Int
        /// Zero rows above and columns left of the input.
        let top: Int, left: Int
        /// Extents of the padded image: the input plus the padding every window needs.
        let height: Int, width: Int

        init?(params: DepthwiseConv2DParams, inputShape: NHWC, filterShape: NHWC, outputShape: NHWC) {
            let g = params.geometry
            let size = filterShape.height
            // Stride 1 only: a strided layer reads its input more sparsely than the copy would
            // (a stride-2 layer computes a quarter of the copied pixels), and TensorFlow's SAME
            // padding of an even input at stride 2 leaves only one border row and column.
            guard params.depthMultiplier == 1, filterShape.width == size, size == 3 || size == 5,
                  g.dilationHeight == 1, g.dilationWidth == 1, g.strideHeight == 1, g.strideWidth == 1 else { return nil }
            input = inputShape
            self.size = size
            strideHeight = g.strideHeight
            strideWidth = g.strideWidth
            top = g.paddingHeight.before
            left = g.paddingWidth.before
            height = Swift.max(top + inputShape.height, (outputShape.height - 1) * g.strideHeight + size)
            width = Swift.max(left + inputShape.width, (outputShape.width - 1) * g.strideWidth + size)
            // Stride 1: the output pixels whose windows stick out of the input are the first
            // `top` and last `bottom` rows and columns.
            let bottom = height - top - inputShape.height, right = width - left - inputShape.width
            let innerRows = Swift.max(0, outputShape.height - top - bottom)
            let innerColumns = Swift.max(0, outputShape.width - left - right)
            let borderPixels = outputShape.height * outputShape.width - innerRows * innerColumns
            // Worth a pass over the input only when at least one pixel in eight is a border
            // pixel (a 3x3 layer up to 32 pixels wide); on large images the border is a thin
            // frame and the copy would cost more than it saves.
            guard borderPixels > 0, borderPixels * 8 >= outputShape.height * outputShape.width else { return nil }
        }

        var floatCount: Int { input.batch * height * width * input.channels }

        /// The padded rows (indexed `batch * height + y`) that output rows `range` (indexed
        /// `batch * outputHeight + y`) read: from the first row's window to the last row's.
        func rowsRead(byOutputRows range: Range<Int>, outputShape: NHWC) -> Range<Int> {
            guard let last = range.last else { return 0..<0 }
            @inline(__always) func top(_ row: Int) -> Int {
                row / outputShape.height * height + row % outputShape.height * strideHeight
            }
            return top(range.lowerBound)..<(top(last) + size)
        }

        /// Writes padded rows `rows` (indexed `batch * height + y`) of the image.
        func fill(rows: Range<Int>, from source: UnsafePointer<Float>, into image: UnsafeMutablePointer<Float>) {
            let c = input.channels, rowFloats = width * c
            for row in rows {
                let b = row / height, y = row % height - top
                let dst = image + row * rowFloats
                guard y >= 0 && y < input.height else {
                    dst.update(repeating: 0, count: rowFloats)
                    continue
                }
                dst.update(repeating: 0, count: left * c)
                (dst + left * c).update(from: source + ((b * input.height + y) * input.width) * c, count: input.width * c)
                let after = (left + input.width) * c
                (dst + after).update(repeating: 0, count: rowFloats - after)
            }
        }

        /// One output row (`batch * outputHeight + y`), every pixel through ``InteriorSpan``.
        @inline(__always)
        func outputRow(_ row: Int, image: UnsafePointer<Float>, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
                       activation: ActivationRange<Float>, output: UnsafeMutablePointer<Float>, outputShape: NHWC) {
            let c = input.channels
            let b = row / outputShape.height, oy = row % outputShape.height
            let span = InteriorSpan(origin: image + (b * height + oy * strideHeight) * width * c, count: outputShape.width,
                                    pixelStride: strideWidth * c, rowStride: width * c, channels: c, filter: filter,
                                    bias: bias, activation: activation, out: output + row * outputShape.width * c,
                                    filterRows: 0..<size)
            if size == 3 { span.run(Window3.self) } else { span.run(Window5.self) }
        }
    }

    /// One output row (fixed batch and y) of the multiplier-1 fast path. When the filter is 3x3
    /// or 5x5 without dilation, the horizontally interior pixels go through ``InteriorSpan``
    /// over the filter rows inside the input (all of them except near the top and bottom of a
    /// padded layer); the pixels at the left and right borders, other sizes and dilations walk
    /// only their in-bounds taps.
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
        let size = filterShape.height
        let unrolled = g.dilationHeight == 1 && g.dilationWidth == 1 && filterShape.width == size
            && (size == 3 || size == 5)
        let inputRowStride = inputShape.width * channels
        let inputBatch = input + b * inputShape.height * inputRowStride
        let outRow = output + (b * outputShape.height + oy) * outputShape.width * channels

        // Output columns whose whole window is inside the input horizontally. In the top and
        // bottom rows they take the span path too, over the filter rows inside the input.
        var interior = 0..<0
        if unrolled && fyStart < fyEnd {
            let pad = g.paddingWidth.before, stride = g.strideWidth
            let first = (pad + stride - 1) / stride
            let lastStart = inputShape.width - size + pad
            let end = lastStart >= 0 ? Swift.min(outputShape.width, lastStart / stride + 1) : 0
            if first < end { interior = first..<end }
        }
        // Only the columns either side of the interior: a loop over every column that skipped
        // the interior ones cost as much per row as the interior's multiply-adds on a 3x3 layer
        // 112 pixels wide.
        let leftBorder = 0..<(interior.isEmpty ? outputShape.width : interior.lowerBound)
        let rightBorder = (interior.isEmpty ? outputShape.width : interior.upperBound)..<outputShape.width
        @inline(__always) func border(_ ox: Int) {
            let ix0 = ox * g.strideWidth - g.paddingWidth.before
            var fxStart = 0, fxEnd = filterShape.width
            while fxStart < fxEnd && ix0 + fxStart * g.dilationWidth < 0 { fxStart += 1 }
            while fxEnd > fxStart && ix0 + (fxEnd - 1) * g.dilationWidth >= inputShape.width { fxEnd -= 1 }
            borderPixel(fy: fyStart..<fyEnd, fx: fxStart..<fxEnd, iy0: iy0, ix0: ix0, geometry: g,
                        input: inputBatch, inputWidth: inputShape.width, channels: channels,
                        filter: filter, filterWidth: filterShape.width, bias: bias,
                        activation: params.activation, out: outRow + ox * channels)
        }
        for ox in leftBorder { border(ox) }
        for ox in rightBorder { border(ox) }
        guard !interior.isEmpty else { return }
        // The input pixel under the first interior window's top-left tap inside the input.
        let origin = inputBatch + (iy0 + fyStart) * inputRowStride + (interior.lowerBound * g.strideWidth - g.paddingWidth.before) * channels
        let span = InteriorSpan(origin: origin, count: interior.count, pixelStride: g.strideWidth * channels,
                                rowStride: inputRowStride, channels: channels, filter: filter, bias: bias,
                                activation: params.activation, out: outRow + interior.lowerBound * channels,
                                filterRows: fyStart..<fyEnd)
        if size == 3 { span.run(Window3.self) } else { span.run(Window5.self) }
    }

    /// The side of a square depthwise window, as a type (see ``InteriorSpan/group(_:_:channel:)``).
    protocol WindowSize { static var size: Int { get } }
    enum Window3: WindowSize { static var size: Int { 3 } }
    enum Window5: WindowSize { static var size: Int { 5 } }

    /// A run of output pixels in one row whose `size x size` windows lie inside the input (no
    /// dilation). The loop order is channel group outermost: a group's filter taps are loaded
    /// once (into a stack tuple; in registers where they fit) while the span's pixels stream past, four at a time so that
    /// four accumulator chains overlap. Offsets use wrapping arithmetic: the caller proved every
    /// tap is inside the input.
    struct InteriorSpan {
        let origin: UnsafePointer<Float>
        let count: Int
        /// Floats between the windows of neighbouring output pixels (`strideWidth * channels`).
        let pixelStride: Int
        let rowStride: Int
        let channels: Int
        let filter: UnsafePointer<Float>
        let bias: UnsafePointer<Float>?
        let activation: ActivationRange<Float>
        let out: UnsafeMutablePointer<Float>
        /// The filter rows the windows have inside the input (all of them but in a padded
        /// layer's top and bottom rows); `origin` is the input row of the first.
        let filterRows: Range<Int>

        /// Every channel of the span, with `W`'s window size.
        @inline(__always)
        func run<W: WindowSize>(_: W.Type) {
            var c = 0
            #if TFLITE_AVX512
            while c &+ 16 <= channels { group(SIMD16<Float>.self, W.self, channel: c); c &+= 16 }
            #endif
            while c &+ 8 <= channels { group(SIMD8<Float>.self, W.self, channel: c); c &+= 8 }
            while c &+ 4 <= channels { group(SIMD4<Float>.self, W.self, channel: c); c &+= 4 }
            while c < channels { scalarChannel(c, size: W.size); c &+= 1 }
        }

        /// Channels `channel ..< channel + V.scalarCount` of every pixel in the span. The window
        /// size is a type so that each specialisation sees it as a constant and unrolls its tap
        /// loops: passed as a value, the constant only reached the loops when every caller was
        /// inlined, and the multi-threaded closure's copy was not (its taps went through memory
        /// in a rolled loop, a third slower, which ate the second thread's gain).
        @inline(never)
        func group<V: ClampableFloatLanes, W: WindowSize>(_: V.Type, _: W.Type, channel: Int) {
            let lo = activation.min, hi = activation.max
            // Most depthwise layers have no fused activation; they skip the clamp.
            let clamps = lo > -.infinity || hi < .infinity
            let tapBytes = channels &* 4, rowBytes = rowStride &* 4, pixelBytes = pixelStride &* 4
            #if TFLITE_AVX512
            // Full 3x3 windows at stride 1 or 2, every row but a padded layer's first and last,
            // take a loop of their own with the nine taps in registers (32 of them; SSE2's 16
            // cannot hold nine 8-lane taps, and the portable build keeps the loop below).
            if W.size == 3 && filterRows.count == 3 && (pixelStride == channels || pixelStride == 2 &* channels) {
                let x = UnsafeRawPointer(origin + channel), o = UnsafeMutableRawPointer(out + channel)
                let w = UnsafeRawPointer(filter + channel)
                let start = bias.map { UnsafeRawPointer($0 + channel).loadUnaligned(as: V.self) } ?? V()
                // Two calls, each with its stride a constant.
                if pixelStride == channels {
                    Self.fullWindows3x3(stride: 1, from: x, to: o, count: count, taps: w, start: start,
                                        tapBytes: tapBytes, rowBytes: rowBytes, clamps: clamps, lo, hi)
                } else {
                    Self.fullWindows3x3(stride: 2, from: x, to: o, count: count, taps: w, start: start,
                                        tapBytes: tapBytes, rowBytes: rowBytes, clamps: clamps, lo, hi)
                }
                return
            }
            #endif
            // The group's taps, row-major, loaded once for the whole span into a tuple on the
            // stack (`withUnsafeTemporaryAllocation` moves requests over 1 KiB, such as 25
            // 16-lane taps, to the heap; reading the taps from the filter at every pixel
            // measured slower).
            var storage: TapStorage<V> = (V(), V(), V(), V(), V(), V(), V(), V(), V(), V(), V(), V(), V(),
                                          V(), V(), V(), V(), V(), V(), V(), V(), V(), V(), V(), V())
            withUnsafeMutableBytes(of: &storage) { bytes in
                // Read the size here, not captured from outside: the closure is compiled as a
                // function of its own, where a captured size is a run-time value. The tap loops
                // then stayed loops, and the 3x3 and 5x5 specialisations, identical but for
                // that value, were merged into one function taking it as a parameter.
                let size = W.size
                // A homogeneous tuple's memory is bound to its element type.
                let taps = bytes.baseAddress!.assumingMemoryBound(to: V.self)
                var w = UnsafeRawPointer(filter + channel)
                for t in 0..<(size &* size) {
                    taps[t] = w.loadUnaligned(as: V.self)
                    w += tapBytes
                }
                let start = bias.map { UnsafeRawPointer($0 + channel).loadUnaligned(as: V.self) } ?? V()
                var x = UnsafeRawPointer(origin + channel)
                var o = UnsafeMutableRawPointer(out + channel)
                var remaining = count
                // At stride 1 the four pixels' windows overlap: a filter row's taps meet only
                // `size + 3` input pixels, loaded once each into registers and slid one tap at a
                // time. With an address per (pixel, tap) pair, a 5x5 row needed twenty, more than
                // the registers, and the loop reloaded them from the stack.
                let slides = pixelStride == channels
                // Four pixels per step: four independent accumulator chains keep the
                // multiply-adds from waiting on each other's latency (two chains left the loop
                // latency-bound), and each tap loaded is used four times.
                while remaining >= 4 {
                    var acc0 = start, acc1 = start, acc2 = start, acc3 = start
                    var xRow = x
                    for ky in filterRows {
                        if slides {
                            @inline(__always) func pixel(_ i: Int) -> V { xRow.loadUnaligned(fromByteOffset: i &* tapBytes, as: V.self) }
                            var i0 = pixel(0), i1 = pixel(1), i2 = pixel(2), i3 = pixel(3)
                            for kx in 0..<size {
                                let tap = taps[ky &* size &+ kx]
                                multiplyAdd(&acc0, i0, tap)
                                multiplyAdd(&acc1, i1, tap)
                                multiplyAdd(&acc2, i2, tap)
                                multiplyAdd(&acc3, i3, tap)
                                (i0, i1, i2) = (i1, i2, i3)
                                if kx &+ 1 < size { i3 = pixel(kx &+ 4) }
                            }
                        } else {
                            for kx in 0..<size {
                                let tap = taps[ky &* size &+ kx]
                                let p = xRow + kx &* tapBytes
                                multiplyAdd(&acc0, p.loadUnaligned(as: V.self), tap)
                                multiplyAdd(&acc1, p.loadUnaligned(fromByteOffset: pixelBytes, as: V.self), tap)
                                multiplyAdd(&acc2, p.loadUnaligned(fromByteOffset: 2 &* pixelBytes, as: V.self), tap)
                                multiplyAdd(&acc3, p.loadUnaligned(fromByteOffset: 3 &* pixelBytes, as: V.self), tap)
                            }
                        }
                        xRow += rowBytes
                    }
                    o.storeBytes(of: clamps ? acc0.clampedLanes(lo, hi) : acc0, as: V.self)
                    o.storeBytes(of: clamps ? acc1.clampedLanes(lo, hi) : acc1, toByteOffset: tapBytes, as: V.self)
                    o.storeBytes(of: clamps ? acc2.clampedLanes(lo, hi) : acc2, toByteOffset: 2 &* tapBytes, as: V.self)
                    o.storeBytes(of: clamps ? acc3.clampedLanes(lo, hi) : acc3, toByteOffset: 3 &* tapBytes, as: V.self)
                    x += 4 &* pixelBytes
                    o += 4 &* tapBytes
                    remaining &-= 4
                }
                while remaining > 0 {
                    var acc = start
                    var xRow = x
                    for ky in filterRows {
                        for kx in 0..<size {
                            multiplyAdd(&acc, xRow.loadUnaligned(fromByteOffset: kx &* tapBytes, as: V.self), taps[ky &* size &+ kx])
                        }
                        xRow += rowBytes
                    }
                    o.storeBytes(of: clamps ? acc.clampedLanes(lo, hi) : acc, as: V.self)
                    x += pixelBytes
                    o += tapBytes
                    remaining &-= 1
                }
            }
        }

        /// `count` pixels of the span, for full 3x3 windows `stride` pixels apart from `x` on,
        /// written from `o` on; the taps are read from `taps` (the group's first channel of the
        /// filter).
        ///
        /// One pixel per step, nine multiply-adds with their input from memory: each address is
        /// one of three row pointers plus 0, 1 or 2 taps, so the loop fits the registers, and
        /// consecutive pixels are independent chains the processor overlaps by itself. The
        /// four-pixel loop of ``group(_:_:channel:)`` needed a pointer per distinct offset
        /// (the tap size is a run-time value), spilled them, and read its taps from the stack:
        /// it ran at about half this loop's speed.
        @_transparent
        static func fullWindows3x3<V: ClampableFloatLanes>(stride: Int, from x: UnsafeRawPointer,
                                                           to o: UnsafeMutableRawPointer, count: Int,
                                                           taps: UnsafeRawPointer, start: V, tapBytes: Int, rowBytes: Int,
                                                           clamps: Bool, _ lo: Float, _ hi: Float) {
            func tap(_ t: Int) -> V { taps.loadUnaligned(fromByteOffset: t &* tapBytes, as: V.self) }
            let w0 = tap(0), w1 = tap(1), w2 = tap(2), w3 = tap(3), w4 = tap(4), w5 = tap(5), w6 = tap(6), w7 = tap(7)
            let w8 = tap(8)
            let step = stride &* tapBytes, twoTaps = 2 &* tapBytes
            var x = x, o = o
            for _ in 0..<count {
                var acc = start
                let row0 = x, row1 = x + rowBytes, row2 = x + 2 &* rowBytes
                multiplyAdd(&acc, row0.loadUnaligned(as: V.self), w0)
                multiplyAdd(&acc, row0.loadUnaligned(fromByteOffset: tapBytes, as: V.self), w1)
                multiplyAdd(&acc, row0.loadUnaligned(fromByteOffset: twoTaps, as: V.self), w2)
                multiplyAdd(&acc, row1.loadUnaligned(as: V.self), w3)
                multiplyAdd(&acc, row1.loadUnaligned(fromByteOffset: tapBytes, as: V.self), w4)
                multiplyAdd(&acc, row1.loadUnaligned(fromByteOffset: twoTaps, as: V.self), w5)
                multiplyAdd(&acc, row2.loadUnaligned(as: V.self), w6)
                multiplyAdd(&acc, row2.loadUnaligned(fromByteOffset: tapBytes, as: V.self), w7)
                multiplyAdd(&acc, row2.loadUnaligned(fromByteOffset: twoTaps, as: V.self), w8)
                o.storeBytes(of: clamps ? acc.clampedLanes(lo, hi) : acc, as: V.self)
                x += step
                o += tapBytes
            }
        }

        /// One channel of every pixel in the span (channel counts that are not a multiple of 4).
        func scalarChannel(_ c: Int, size: Int) {
            for p in 0..<count {
                var acc = bias?[c] ?? 0
                var xRow = origin + (p &* pixelStride &+ c), w = filter + (filterRows.lowerBound &* size &* channels &+ c)
                for _ in filterRows {
                    var x = xRow
                    for _ in 0..<size {
                        acc += x.pointee * w.pointee
                        x += channels
                        w += channels
                    }
                    xRow += rowStride
                }
                out[p &* channels &+ c] = activation.clamp(acc)
            }
        }
    }

    /// One output pixel over its in-bounds taps `fy x fx`, any filter size and dilation.
    @inline(__always)
    static func borderPixel(fy: Range<Int>, fx: Range<Int>, iy0: Int, ix0: Int, geometry g: ConvGeometry,
                            input: UnsafePointer<Float>, inputWidth: Int, channels: Int,
                            filter: UnsafePointer<Float>, filterWidth: Int, bias: UnsafePointer<Float>?,
                            activation: ActivationRange<Float>, out: UnsafeMutablePointer<Float>) {
        // The widest vectors the build has: with 8-lane vectors on AVX-512 the border pixels of a
        // 56-pixel-wide layer, one in fourteen, took a fifth of its time.
        @inline(__always) func group<V: ClampableFloatLanes>(_: V.Type, from c: Int) {
            var acc = bias.map { UnsafeRawPointer($0 + c).loadUnaligned(as: V.self) } ?? V()
            for ty in fy {
                let iy = iy0 &+ ty &* g.dilationHeight
                for tx in fx {
                    let ix = ix0 &+ tx &* g.dilationWidth
                    let xv = UnsafeRawPointer(input + ((iy &* inputWidth &+ ix) &* channels &+ c)).loadUnaligned(as: V.self)
                    let wv = UnsafeRawPointer(filter + ((ty &* filterWidth &+ tx) &* channels &+ c)).loadUnaligned(as: V.self)
                    multiplyAdd(&acc, xv, wv)
                }
            }
            UnsafeMutableRawPointer(out + c).storeBytes(of: acc.clampedLanes(activation.min, activation.max), as: V.self)
        }
        var c = 0
        #if TFLITE_AVX512
        while c &+ 16 <= channels { group(SIMD16<Float>.self, from: c); c &+= 16 }
        #endif
        while c &+ 8 <= channels { group(SIMD8<Float>.self, from: c); c &+= 8 }
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

/// Room for the taps of a 5x5 filter, the largest the interior spans unroll.
typealias TapStorage<V> = (V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V, V)

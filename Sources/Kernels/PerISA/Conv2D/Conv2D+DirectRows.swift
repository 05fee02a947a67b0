#if TFLITE_ISA_MODULE
import Kernels
#endif
extension Conv2D {
    /// Whether ``directRows(params:input:inputShape:weights:bias:output:outputShape:scratch:pool:)``
    /// handles the node: an undilated convolution over at most 8 input channels (a network's
    /// first layer on RGB pixels), where gathering each window into an im2col row cost more
    /// than the multiply-adds it fed, or with at most 32 outputs (a detector's box and class
    /// heads), where each gathered float fed at most 32 of them: ssd_detector_float's 3x3 heads
    /// over 96 channels to 12 outputs went 0.079-0.081 -> 0.074 ms, and its heads to 18
    /// outputs 0.226 -> 0.217 ms (20x20) and 0.075 -> 0.071 ms (10x10).
    static func usesDirectRows(params: Conv2DParams, inputShape: NHWC, filterShape: NHWC) -> Bool {
        (inputShape.channels <= 8 || filterShape.batch <= 32) && params.geometry.dilationHeight == 1 && params.geometry.dilationWidth == 1
    }

    /// CONV_2D for small-channel layers without im2col for most pixels. For an output pixel
    /// whose window lies inside the input, filter row `fy` covers `filterWidth * channels`
    /// adjacent input floats, and the same span of neighbouring pixels in an output row starts
    /// `strideWidth * channels` floats further on: a GEMM operand with that row stride. So the
    /// interior of each output row runs as GEMM tiles read straight from the input, one pass per
    /// filter row accumulating into the output (the packed filter's depth order is
    /// `(fy, fx, channel)`, so filter row `fy` is a contiguous slice of every panel). Pixels
    /// whose window leaves the input are gathered and multiplied as in the im2col path: whole
    /// rows at the top and bottom, and the edge columns of a run of interior rows column by
    /// column. Output rows are split across `pool`.
    static func directRows(params: Conv2DParams,
                           input: UnsafePointer<Float>, inputShape: NHWC,
                           weights: PackedConv2DWeights, bias: UnsafePointer<Float>?, residual: GEMMResidual?,
                           output: UnsafeMutablePointer<Float>, outputShape: NHWC,
                           scratch: UnsafeMutablePointer<Float>, pool: ThreadPool) {
        let g = params.geometry, f = weights.filterShape
        let depth = weights.gemm.depth, n = outputShape.channels, cin = inputShape.channels
        let segment = f.width * cin
        let blockRows = im2colRows(depth: depth)
        // Output columns whose windows are inside the input horizontally.
        let firstInner = Swift.min(outputShape.width, (g.paddingWidth.before + g.strideWidth - 1) / g.strideWidth)
        let lastStart = inputShape.width - f.width + g.paddingWidth.before
        let endInner = lastStart >= 0 ? Swift.max(firstInner, Swift.min(outputShape.width, lastStart / g.strideWidth + 1)) : firstInner
        let rows = outputShape.batch * outputShape.height
        let work = rows * outputShape.width * n * depth
        weights.gemm.panels.withUnsafeBufferPointer { packed in
            let base = packed.baseAddress!
            pool.parallelFor(count: rows, chunks: pool.chunks(forWork: work)) { thread, range in
                let buffer = scratch + thread * blockRows * depth
                /// Gathers output pixels `columns` of row (`b`, `oy`), the `row`th of the output,
                /// into the buffer, at most `blockRows` at a time, and multiplies them.
                func gathered(_ b: Int, _ oy: Int, _ columns: Range<Int>, _ row: Int) {
                    var x0 = columns.lowerBound
                    while x0 < columns.upperBound {
                        let count = Swift.min(blockRows, columns.upperBound - x0)
                        for r in 0..<count {
                            gatherWindow(batch: b, y: oy, x: x0 + r, params: params, input: input, inputShape: inputShape,
                                         filterShape: f, into: buffer + r * depth)
                        }
                        let pixel = row * outputShape.width + x0
                        GEMM.multiply(a: buffer, lda: depth, rows: 0..<count, weights: weights.gemm,
                                      panels: 0..<weights.gemm.panelCount, bias: bias, activation: params.activation,
                                      residual: residual?.advanced(rows: pixel, column: 0), c: output + pixel * n, ldc: n)
                        x0 += count
                    }
                }
                /// Gathers output pixel column `x` of the output rows `rows` into the buffer, at
                /// most `blockRows` at a time, and multiplies them: one GEMM per block of rows
                /// rather than one per pixel (those pixels lie `width * n` floats apart).
                func gatheredDown(_ x: Int, _ rows: Range<Int>) {
                    var r0 = rows.lowerBound
                    while r0 < rows.upperBound {
                        let count = Swift.min(blockRows, rows.upperBound - r0)
                        for r in 0..<count {
                            let row = r0 + r
                            gatherWindow(batch: row / outputShape.height, y: row % outputShape.height, x: x, params: params,
                                         input: input, inputShape: inputShape, filterShape: f, into: buffer + r * depth)
                        }
                        let pixel = r0 * outputShape.width + x
                        let down = residual.map { skip in
                            let start = skip.advanced(rows: pixel, column: 0)
                            return GEMMResidual(base: start.base, rowStride: start.rowStride * outputShape.width,
                                                columns: start.columns)
                        }
                        GEMM.multiply(a: buffer, lda: depth, rows: 0..<count, weights: weights.gemm,
                                      panels: 0..<weights.gemm.panelCount, bias: bias, activation: params.activation,
                                      residual: down, c: output + pixel * n, ldc: outputShape.width * n)
                        r0 += count
                    }
                }
                /// Whether the windows of output row `row` are inside the input vertically, and
                /// the row has interior columns at all.
                func isInterior(_ row: Int) -> Bool {
                    let iy0 = row % outputShape.height * g.strideHeight - g.paddingHeight.before
                    return iy0 >= 0 && iy0 + f.height <= inputShape.height && firstInner < endInner
                }
                var row = range.lowerBound
                while row < range.upperBound {
                    guard isInterior(row) else {
                        gathered(row / outputShape.height, row % outputShape.height, 0..<outputShape.width, row)
                        row += 1
                        continue
                    }
                    // A run of interior rows: their interior columns as direct tiles, row by
                    // row, then their edge columns gathered column by column down the run.
                    var end = row + 1
                    while end < range.upperBound && isInterior(end) { end += 1 }
                    for r in row..<end {
                        let b = r / outputShape.height, oy = r % outputShape.height
                        let iy0 = oy * g.strideHeight - g.paddingHeight.before
                        let ix0 = firstInner * g.strideWidth - g.paddingWidth.before
                        let rowBase = input + ((b * inputShape.height + iy0) * inputShape.width + ix0) * cin
                        directTiles(rowBase: rowBase, inputRowStride: inputShape.width * cin, pixelStride: g.strideWidth * cin,
                                    count: endInner - firstInner, filterHeight: f.height, segment: segment,
                                    panels: base, weights: weights.gemm, bias: bias, activation: params.activation,
                                    residual: residual?.advanced(rows: r * outputShape.width + firstInner, column: 0),
                                    out: output + (r * outputShape.width + firstInner) * n, ldc: n)
                    }
                    for x in 0..<firstInner { gatheredDown(x, row..<end) }
                    for x in endInner..<outputShape.width { gatheredDown(x, row..<end) }
                    row = end
                }
            }
        }
    }

    /// `count` interior pixels of one output row, in GEMM tiles read from the input: per tile
    /// and group of panels (``GEMM/PanelGroup``), one pass per filter row, the first starting
    /// from the bias, the last applying the clamp.
    @inline(__always)
    static func directTiles(rowBase: UnsafePointer<Float>, inputRowStride: Int, pixelStride: Int, count: Int,
                            filterHeight: Int, segment: Int, panels base: UnsafePointer<Float>,
                            weights: PackedGEMMWeights, bias: UnsafePointer<Float>?, activation: ActivationRange<Float>,
                            residual: GEMMResidual?, out: UnsafeMutablePointer<Float>, ldc: Int) {
        var p = 0
        while p < weights.panelCount {
            let group = GEMM.PanelGroup(weights: weights, packed: base, first: p,
                                        count: GEMM.groupWidth(panelsLeft: weights.panelCount - p), depthOffset: 0,
                                        bias: bias)
            let col0 = p * GEMM.panelWidth
            // The filter rows are segments of one reduction: filter row `fy` reads the input
            // row `fy` rows down and the next `segment` values of the panel, and the tile sums
            // them all in registers. Rows go as many per call as the tiles take (all of them on
            // AVX-512).
            var r = 0
            while r < count {
                let mr = Swift.min(GEMM.rowsPerCall, count - r)
                GEMM.tileGroup(a: rowBase + r * pixelStride, lda: pixelStride, rowCount: mr, depth: segment,
                               segments: filterHeight, segmentStride: inputRowStride, group: group, accumulate: false,
                               activation: activation, residual: residual?.advanced(rows: r, column: col0),
                               c: out + r * ldc + col0, ldc: ldc)
                r += mr
            }
            p += group.count
        }
    }
}

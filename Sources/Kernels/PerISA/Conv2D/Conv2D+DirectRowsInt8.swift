#if TFLITE_ISA_MODULE
import Kernels
#endif
/// The small-channel form of an optimised int8 CONV_2D (at most 8 input channels, no
/// dilation: a network's first layer on RGB pixels), where im2col gathered a handful of values
/// per window row and cost more than the multiply-adds it fed.
///
/// The input is first widened to int16 into a zero-point-bordered image, so every window lies
/// inside it. Filter row `fy` of any window then covers `filterWidth * channels` adjacent image
/// values, and the same span of the next output pixel starts `strideWidth * channels` values
/// further on: a GEMM operand read in place, with that row stride. Each output tile runs one
/// ``Int8GEMM`` call whose reduction has one segment per filter row. The filter is packed with each
/// filter row padded to an even length (`segment`) so that its pairs never straddle two rows;
/// the pad weight is zero, and its partner value is simply the next value in the image.
struct Int8DirectRowsLayout: Sendable {
    /// The filter, packed as rows of `filterHeight * segment` values.
    let weights: Int8PackedWeights
    /// int16 values per filter row in the packed filter: `filterWidth * channels`, made even.
    let segment: Int
    /// The input shape the layout was made for.
    let input: NHWC
    /// Zero-point rows above and columns left of the input in the image.
    let top: Int, left: Int
    /// Extents of the image: the input plus every row and column a window reaches.
    let height: Int, width: Int

    /// Whether a layer takes this path.
    static func applies(_ g: ConvGeometry, filterShape: NHWC) -> Bool {
        filterShape.channels <= 8 && g.dilationHeight == 1 && g.dilationWidth == 1
            && filterShape.height * filterShape.width > 1
    }

    init(geometry g: ConvGeometry, filter: UnsafePointer<Int8>, filterShape f: NHWC, inputShape: NHWC, outputShape: NHWC) {
        let run = f.width * f.channels
        segment = (run + 1) / 2 * 2
        var rows = [Int8](repeating: 0, count: f.batch * f.height * segment)
        for oc in 0..<f.batch {
            for fy in 0..<f.height {
                for k in 0..<run {
                    rows[(oc * f.height + fy) * segment + k] = filter[(oc * f.height + fy) * run + k]
                }
            }
        }
        let depth = f.height * segment
        weights = rows.withUnsafeBufferPointer { Int8PackedWeights(rows: $0.baseAddress!, channels: f.batch, depth: depth) }
        input = inputShape
        top = g.paddingHeight.before
        left = g.paddingWidth.before
        height = max(top + inputShape.height, (outputShape.height - 1) * g.strideHeight + f.height)
        width = max(left + inputShape.width, (outputShape.width - 1) * g.strideWidth + f.width)
    }

    /// int16 values of the image, with one pixel more at the end: the partner of an odd
    /// filter row's last value in the image's last window.
    var imageCount: Int { (input.batch * height * width + 1) * input.channels }

    /// Fills image rows `rows` (indexed `batch * height + y`) from `source`.
    func fill(rows: Range<Int>, from source: UnsafePointer<Int8>, zeroPoint: Int16, into image: UnsafeMutablePointer<Int16>) {
        let c = input.channels, rowCount = width * c
        for row in rows {
            let b = row / height, y = row % height - top
            let dst = image + row * rowCount
            guard y >= 0 && y < input.height else {
                dst.update(repeating: zeroPoint, count: rowCount)
                continue
            }
            dst.update(repeating: zeroPoint, count: left * c)
            Int8GEMM.convert(source + (b * input.height + y) * input.width * c, count: input.width * c, to: dst + left * c)
            let after = (left + input.width) * c
            (dst + after).update(repeating: zeroPoint, count: rowCount - after)
        }
        if rows.upperBound == input.batch * height {
            (image + rows.upperBound * rowCount).update(repeating: zeroPoint, count: c)
        }
    }
}

extension Conv2D.Quantized {
    /// ``Conv2D/Quantized/optimized`` through ``Int8DirectRowsLayout``: fills the image, then splits the
    /// output rows across `pool`. `scratch` is 64-byte aligned.
    static func directRows(
        _ prepared: RequantizedConvolution<Int8PairConvLayout>, layout: Int8DirectRowsLayout,
        input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
        scratch: UnsafeMutableRawPointer, pool: ThreadPool?
    ) {
        let p = prepared.params
        let image = scratch.bindMemory(to: Int16.self, capacity: layout.imageCount)
        let sumsBase = scratch + (layout.imageCount * 2 + 63) / 64 * 64
        let zeroPoint = Int16(-p.inputOffset)
        let imageRows = layout.input.batch * layout.height
        let rows = outputShape.batch * outputShape.height
        if let pool, pool.threadCount > 1 {
            pool.parallelFor(count: imageRows, chunks: pool.chunks(forWork: layout.imageCount)) { _, range in
                layout.fill(rows: range, from: input, zeroPoint: zeroPoint, into: image)
            }
            pool.parallelFor(count: rows, chunks: pool.threadCount) { thread, range in
                directRowsInt8(prepared, layout: layout, image: image, rows: range, output: output, outputShape: outputShape,
                               sums: sumsBase + thread * Int8DirectRowsLayout.sumsBytes)
            }
        } else {
            layout.fill(rows: 0..<imageRows, from: input, zeroPoint: zeroPoint, into: image)
            directRowsInt8(prepared, layout: layout, image: image, rows: 0..<rows, output: output, outputShape: outputShape,
                           sums: sumsBase)
        }
    }
}

extension Int8DirectRowsLayout {
    /// Bytes of one thread's tile of int32 sums, whole cache lines.
    static var sumsBytes: Int { (Int8GEMM.rowTile * int8LaneCount * 4 + 63) / 64 * 64 }
}

/// Output rows `rows` (indexed `batch * outputHeight + y`) of ``Conv2D/Quantized/directRows``.
private func directRowsInt8(
    _ prepared: RequantizedConvolution<Int8PairConvLayout>, layout: Int8DirectRowsLayout, image: UnsafePointer<Int16>, rows: Range<Int>,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC, sums: UnsafeMutableRawPointer
) {
    let g = prepared.params.geometry, c = layout.input.channels
    let kh = prepared.layout.filterShape.height, lanes = int8LaneCount
    let segmentPairs = layout.segment / 2, pairCount = layout.weights.pairCount
    let lda = g.strideWidth * c, imageRow = layout.width * c
    let outputDepth = outputShape.channels, width = outputShape.width
    layout.weights.values.withUnsafeBufferPointer { packed in
    prepared.requantization.withRequantizer { q in
        for row in rows {
            let b = row / outputShape.height, oy = row % outputShape.height
            let windowTop = image + (b * layout.height + oy * g.strideHeight) * imageRow
            let outRow = output + row * width * outputDepth
            var ox = 0
            while ox < width {
                let count = min(Int8GEMM.rowTile, width - ox)
                let a = windowTop + ox * lda
                for block in 0..<layout.weights.blockCount {
                    let panel = packed.baseAddress! + block * pairCount * lanes * 2
                    // The filter rows are segments of one reduction, summed in registers.
                    Int8GEMM.blockSums(a: a, lda: lda, rowCount: count, pairs: segmentPairs, segments: kh,
                                       segmentStride: imageRow, panel: panel, sums: sums)
                    let channels = min(lanes, outputDepth - block * lanes)
                    q.store(rows: sums, sumStride: lanes * 4, rowCount: count, group: block,
                            to: outRow + ox * outputDepth + block * lanes, outStride: outputDepth, count: channels)
                }
                ox += count
            }
        }
    }}
}

#if TFLITE_ISA_MODULE
import Kernels
#endif
/// An int8 DEPTHWISE_CONV_2D prepared for the optimised path (depth multiplier 1, symmetric
/// constant weights): the filter widened to int16 and packed as pairs of neighbouring taps
/// in groups of ``int8LaneCount`` channels, the input zero-point correction folded into the
/// bias (`bias + inputOffset * sum(taps)`), and the requantisation constants laid out for
/// vectors. Built once at prepare; results equal `quantizedDepthwiseConv2D` exactly.
struct PreparedInt8DepthwiseConv2D: Sendable {
    /// The reference parameters (geometry, rescale, clamp).
    let params: QuantizedConvParams
    /// The filter's NHWC extents (`[1, height, width, channels]`).
    let filterShape: NHWC
    /// The filter as int16 tap pairs, `[group][filter row][pair][lane][2]`: pair `q` of a row
    /// holds taps `2q` and `2q + 1` of each channel side by side, the second zero past an
    /// odd row's end; the last group's missing channels are zero.
    let weights: [Int16]
    /// Bias, multipliers and clamp per group of channels.
    let requantization: Int8Requantization

    /// Tap pairs per filter row.
    var pairsPerRow: Int { (filterShape.width + 1) / 2 }

    /// Channels rounded up to whole vectors: the channel stride of the padded rows.
    var paddedChannels: Int { (filterShape.channels + int8LaneCount - 1) / int8LaneCount * int8LaneCount }

    /// Columns of a padded input row: every column any output pixel's taps reach, from
    /// `-paddingWidth.before` on.
    func paddedWidth(outputWidth: Int) -> Int {
        let g = params.geometry
        return (outputWidth - 1) * g.strideWidth + (filterShape.width - 1) * g.dilationWidth + 1
    }

    /// Bytes of one pair row (see ``depthwiseConv2DInt8Optimized``): an int16 pair per padded
    /// column and channel.
    func pairRowBytes(outputWidth: Int) -> Int {
        (paddedWidth(outputWidth: outputWidth) * paddedChannels * 4 + 63) / 64 * 64
    }

    /// Bytes of the widened row a pair row is built from: `dilationWidth` columns more than a
    /// pair row, since each pair reaches that far right.
    func plainRowBytes(outputWidth: Int) -> Int {
        ((paddedWidth(outputWidth: outputWidth) + params.geometry.dilationWidth) * paddedChannels * 2 + 63) / 64 * 64
    }

    /// Bytes of one thread's working space: `kernelHeight` pair rows and one widened row.
    func threadScratchBytes(outputWidth: Int) -> Int {
        filterShape.height * pairRowBytes(outputWidth: outputWidth) + plainRowBytes(outputWidth: outputWidth)
    }

    /// Bytes (int8 elements) of scratch space `depthwiseConv2DInt8Optimized` needs for an
    /// output `outputWidth` pixels wide when run on `threadCount` threads.
    func scratchCount(outputWidth: Int, threadCount: Int) -> Int {
        max(1, threadCount) * threadScratchBytes(outputWidth: outputWidth) + 64
    }

    /// Prepares a layer; nil when the optimised path does not apply: a depth multiplier other
    /// than 1, asymmetric weights, or a rescale without a vector form (a negative multiplier,
    /// see ``Int8Requantization``).
    init?(_ params: QuantizedConvParams, depthMultiplier: Int, filter: UnsafePointer<Int8>, filterShape: NHWC,
          bias: UnsafePointer<Int32>?) {
        let channels = filterShape.channels, (kh, kw) = (filterShape.height, filterShape.width)
        guard depthMultiplier == 1, params.filterOffset == 0, params.outputMultipliers.count == channels else { return nil }
        let sums = (0..<channels).map { c in
            var sum: Int32 = 0
            for t in 0..<(kh * kw) { sum &+= Int32(filter[t * channels + c]) }
            return sum
        }
        guard let requantization = Int8Requantization(weightSums: sums, bias: bias, convolution: params) else { return nil }
        self.requantization = requantization
        self.params = params
        self.filterShape = filterShape
        let lanes = int8LaneCount, groups = (channels + lanes - 1) / lanes, pairs = (kw + 1) / 2
        var packed = [Int16](repeating: 0, count: groups * kh * pairs * lanes * 2)
        for c in 0..<channels {
            for ky in 0..<kh {
                for kx in 0..<kw {
                    packed[(((c / lanes * kh + ky) * pairs + kx / 2) * lanes + c % lanes) * 2 + kx % 2] =
                        Int16(filter[(ky * kw + kx) * channels + c])
                }
            }
        }
        self.weights = packed
    }
}

/// Optimised int8 DEPTHWISE_CONV_2D, bit-exact with `quantizedDepthwiseConv2D`: ``int8LaneCount``
/// channels at a time, two taps per pair-product instruction (`vpdpwssd` with AVX-512 VNNI,
/// `pmaddwd` on SSE2; see `vectorPairProducts`), int32 sums, then vectorised requantisation.
///
/// Each input row a window reaches is first rebuilt as a *pair row*: for every padded column
/// `j` and channel, the int16 pair `(x[j], x[j + dilationWidth])`, padding set to the input
/// zero point (which the folded bias cancels). A filter row's taps `2q` and `2q + 1` are then
/// one pair load at column `2q * dilationWidth` times one packed weight pair, with no
/// widening or shuffling per tap. Pair rows are kept in a ring of `kernelHeight` slots, so a
/// row shared by consecutive output rows is built once.
/// Output rows are split across `pool`'s threads (nil: the calling thread).
///
/// - Parameter scratch: `prepared.scratchCount(outputWidth:threadCount:)` bytes.
func depthwiseConv2DInt8Optimized(
    _ prepared: PreparedInt8DepthwiseConv2D,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    scratch: UnsafeMutablePointer<Int8>, pool: ThreadPool? = nil
) {
    let rows = outputShape.batch * outputShape.height
    // Rows are read as vectors: start at the first 64-byte boundary.
    let raw = UnsafeMutableRawPointer(scratch)
    let base = raw + (64 - Int(bitPattern: raw) & 63) & 63
    let bytes = prepared.threadScratchBytes(outputWidth: outputShape.width)
    if let pool, pool.threadCount > 1 {
        pool.parallelFor(count: rows, chunks: pool.threadCount) { thread, range in
            depthwiseConv2DInt8Rows(prepared, rows: range, input: input, inputShape: inputShape, output: output,
                                    outputShape: outputShape, scratch: base + thread * bytes)
        }
    } else {
        depthwiseConv2DInt8Rows(prepared, rows: 0..<rows, input: input, inputShape: inputShape, output: output,
                                outputShape: outputShape, scratch: base)
    }
}

/// One thread's share of ``depthwiseConv2DInt8Optimized``: output rows `rows` (indexed
/// `batch * outputHeight + y`).
private func depthwiseConv2DInt8Rows(
    _ prepared: PreparedInt8DepthwiseConv2D, rows: Range<Int>,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    scratch: UnsafeMutableRawPointer
) {
    let g = prepared.params.geometry
    let lanes = int8LaneCount, channels = inputShape.channels, stride = prepared.paddedChannels
    let (kh, kw) = (prepared.filterShape.height, prepared.filterShape.width), pairs = prepared.pairsPerRow
    let (sw, dw) = (g.strideWidth, g.dilationWidth)
    let outWidth = outputShape.width
    let groups = stride / lanes
    let pairRowBytes = prepared.pairRowBytes(outputWidth: outWidth)
    let builder = PairRowBuilder(prepared: prepared, inputShape: inputShape, outputWidth: outWidth,
                                 plain: (scratch + kh * pairRowBytes).assumingMemoryBound(to: Int16.self))

    withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * kh) { ring in
    prepared.weights.withUnsafeBufferPointer { weightBuffer in
    prepared.requantization.withRequantizer { q in
        // Which input row each slot holds (`slotRows`), and the slot of each filter row for
        // the current output row (`rowSlots`); `needed` is scratch for the lookup.
        let slotRows = ring.baseAddress!, rowSlots = slotRows + kh, needed = rowSlots + kh
        slotRows.initialize(repeating: Int.min, count: kh)
        let weights = UnsafeRawPointer(weightBuffer.baseAddress!), slots = UnsafeRawPointer(scratch)
        let pixelBytes = sw &* stride &* 4, pairBytes = 2 &* dw &* stride &* 4
        let groupWeightBytes = kh &* pairs &* lanes &* 4

        /// One output row from the pair rows, for a `height x pairs` window. Called with
        /// literal sizes for 3x3 and 5x5, so the tap loops unroll into straight-line code with
        /// constant offsets.
        @inline(__always) func outputRow(_ outRow: UnsafeMutablePointer<Int8>, height kh: Int, pairs: Int) {
            var ox = 0
            while ox < outWidth {
                // Four neighbouring pixels share each weight load and give the pair products
                // four independent chains. Past the end of the row, missing pixels repeat the
                // last one (their results are not stored), keeping the tap loop branch-free.
                let n = min(4, outWidth &- ox)
                let o1 = min(1, n &- 1) &* pixelBytes, o2 = min(2, n &- 1) &* pixelBytes, o3 = min(3, n &- 1) &* pixelBytes
                let column = ox &* pixelBytes
                for group in 0..<groups {
                    let w = weights + group &* groupWeightBytes
                    let x = column &+ group &* lanes &* 4
                    var acc0 = Int32Lanes(), acc1 = Int32Lanes(), acc2 = Int32Lanes(), acc3 = Int32Lanes()
                    for ky in 0..<kh {
                        let row = slots + (rowSlots[ky] &* pairRowBytes &+ x)
                        for pair in 0..<pairs {
                            let tap = w.loadUnaligned(fromByteOffset: (ky &* pairs &+ pair) &* lanes &* 4, as: Int16PairLanes.self)
                            let p = row + pair &* pairBytes
                            acc0 &+= vectorPairProducts(p.loadUnaligned(as: Int16PairLanes.self), tap)
                            acc1 &+= vectorPairProducts(p.loadUnaligned(fromByteOffset: o1, as: Int16PairLanes.self), tap)
                            acc2 &+= vectorPairProducts(p.loadUnaligned(fromByteOffset: o2, as: Int16PairLanes.self), tap)
                            acc3 &+= vectorPairProducts(p.loadUnaligned(fromByteOffset: o3, as: Int16PairLanes.self), tap)
                        }
                    }
                    let c = group &* lanes
                    // The four pixels' sums requantised in one call (see `Int8Requantizer.store(rows:...)`).
                    var pixelSums = (acc0, acc1, acc2, acc3)
                    withUnsafeBytes(of: &pixelSums) {
                        q.store(rows: $0.baseAddress!, sumStride: lanes &* 4, rowCount: n, group: group,
                                to: outRow + (ox &* channels &+ c), outStride: channels, count: min(lanes, channels &- c))
                    }
                }
                ox &+= n
            }
        }

        for r in rows {
            let b = r / outputShape.height, oy = r % outputShape.height
            let iy0 = oy * g.strideHeight - g.paddingHeight.before
            // Input rows as (batch, y) keys; rows outside the input are padding rows.
            for ky in 0..<kh { needed[ky] = b << 32 | (iy0 + ky * g.dilationHeight) & 0xFFFF_FFFF }
            for ky in 0..<kh {
                rowSlots[ky] = -1
                for s in 0..<kh where slotRows[s] == needed[ky] { rowSlots[ky] = s }
            }
            // Rows not in the ring go to slots holding no row this output row needs.
            for ky in 0..<kh where rowSlots[ky] < 0 {
                var s = 0
                while (0..<kh).contains(where: { needed[$0] == slotRows[s] || rowSlots[$0] == s }) { s += 1 }
                slotRows[s] = needed[ky]
                rowSlots[ky] = s
                builder.build(batch: b, y: iy0 + ky * g.dilationHeight, input: input,
                              into: (scratch + s * pairRowBytes).assumingMemoryBound(to: Int16.self))
            }
            let outRow = output + r * outWidth * channels
            switch (kh, kw) {
            case (3, 3): outputRow(outRow, height: 3, pairs: 2)
            case (5, 5): outputRow(outRow, height: 5, pairs: 3)
            default: outputRow(outRow, height: kh, pairs: pairs)
            }
        }
    }}}
}

/// Builds the pair rows of ``depthwiseConv2DInt8Optimized``: the input row widened to int16
/// into a plain padded row, then each column interleaved with the one `dilationWidth` to its
/// right.
private struct PairRowBuilder {
    let input: NHWC
    let stride: Int
    let paddedWidth: Int
    let dilation: Int
    /// Input columns that land in the padded row, and the padding before the first.
    let firstColumn: Int, lastColumn: Int, left: Int
    let zeroPoint: Int16
    /// The widened row: `paddedWidth + dilation` columns of `stride` values.
    let plain: UnsafeMutablePointer<Int16>

    init(prepared: PreparedInt8DepthwiseConv2D, inputShape: NHWC, outputWidth: Int, plain: UnsafeMutablePointer<Int16>) {
        input = inputShape
        stride = prepared.paddedChannels
        paddedWidth = prepared.paddedWidth(outputWidth: outputWidth)
        dilation = prepared.params.geometry.dilationWidth
        left = prepared.params.geometry.paddingWidth.before
        firstColumn = max(0, -left)
        lastColumn = min(inputShape.width, paddedWidth + dilation - left)
        // Padding taps must contribute nothing: x = zero point makes (x + inputOffset) zero,
        // which is what the folded bias assumes.
        zeroPoint = Int16(truncatingIfNeeded: -prepared.params.inputOffset)
        self.plain = plain
    }

    /// Writes the pair row of input row `y` of `batch` (a row of zero points when `y` is
    /// outside the input) to `row`.
    func build(batch: Int, y: Int, input source: UnsafePointer<Int8>, into row: UnsafeMutablePointer<Int16>) {
        let columns = paddedWidth + dilation, channels = input.channels
        guard y >= 0, y < input.height, firstColumn < lastColumn else {
            row.update(repeating: zeroPoint, count: paddedWidth * stride * 2)
            return
        }
        let begin = (firstColumn + left) * stride, end = (lastColumn + left) * stride
        plain.update(repeating: zeroPoint, count: begin)
        (plain + end).update(repeating: zeroPoint, count: columns * stride - end)
        let sourceRow = source + ((batch * input.height + y) * input.width) * channels
        if stride == channels {
            Int8GEMM.convert(sourceRow + firstColumn * channels, count: end - begin, to: plain + begin)
        } else {
            // The padding channels' weights are zero; they are zeroed so no stale value is read.
            for ix in firstColumn..<lastColumn {
                let column = plain + (ix + left) * stride
                Int8GEMM.convert(sourceRow + ix * channels, count: channels, to: column)
                (column + channels).update(repeating: 0, count: stride - channels)
            }
        }
        let lanes = int8LaneCount, vectors = stride / lanes
        let from = UnsafeRawPointer(plain), to = UnsafeMutableRawPointer(row)
        let columnBytes = stride &* 2, shiftBytes = dilation &* columnBytes
        for j in 0..<paddedWidth {
            for v in 0..<vectors {
                let offset = j &* columnBytes &+ v &* lanes &* 2
                let pair = interleaved(from.loadUnaligned(fromByteOffset: offset, as: Int16Lanes.self),
                                       from.loadUnaligned(fromByteOffset: offset &+ shiftBytes, as: Int16Lanes.self))
                to.storeBytes(of: pair, toByteOffset: 2 &* offset, as: Int16PairLanes.self)
            }
        }
    }
}

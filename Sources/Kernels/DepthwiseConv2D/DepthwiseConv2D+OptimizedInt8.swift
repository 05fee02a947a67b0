/// An int8 DEPTHWISE_CONV_2D prepared for the optimised path (depth multiplier 1, symmetric
/// constant weights): the filter converted to float in groups of ``int8LaneCount`` channels
/// (`[group][tap][lane]`, the last group zero-padded), the input zero-point correction folded
/// into the bias (`bias + inputOffset * sum(taps)`), and the requantisation constants laid out
/// for vectors. Built once at prepare; results equal `quantizedDepthwiseConv2D` exactly.
public struct PreparedInt8DepthwiseConv2D: Sendable {
    /// The reference parameters (geometry, rescale, clamp).
    public let params: QuantizedConvParams
    /// The filter's NHWC extents (`[1, height, width, channels]`).
    public let filterShape: NHWC
    /// The filter as floats, grouped by channel vector.
    let weights: [Float]

    /// Channels rounded up to whole vectors: the channel stride of the padded input rows.
    var paddedChannels: Int { (filterShape.channels + int8LaneCount - 1) / int8LaneCount * int8LaneCount }

    /// Columns of a padded input row: every column any output pixel's taps reach, from
    /// `-paddingWidth.before` on.
    func paddedWidth(outputWidth: Int) -> Int {
        let g = params.geometry
        return (outputWidth - 1) * g.strideWidth + (filterShape.width - 1) * g.dilationWidth + 1
    }

    /// Bytes of one thread's working space: `kernelHeight` padded input rows, rounded to whole
    /// cache lines.
    func threadScratchBytes(outputWidth: Int) -> Int {
        let elements = filterShape.height * paddedWidth(outputWidth: outputWidth) * paddedChannels
        return (elements * MemoryLayout<PaddedRowElement>.stride + 63) / 64 * 64
    }

    /// Bytes (int8 elements) of scratch space `depthwiseConv2DInt8Optimized` needs for an
    /// output `outputWidth` pixels wide when run on `threadCount` threads.
    public func scratchCount(outputWidth: Int, threadCount: Int) -> Int {
        max(1, threadCount) * threadScratchBytes(outputWidth: outputWidth) + 64
    }
    /// Bias, multipliers and clamp per group of channels.
    let requantization: Int8Requantization

    /// Prepares a layer; nil when the optimised path does not apply: a depth multiplier other
    /// than 1, asymmetric weights, a kernel of more than `exactFloatProductCount` taps
    /// (whose float sums could lose exactness), or a rescale without a vector form (a negative
    /// multiplier, see ``Int8Requantization``).
    public init?(_ params: QuantizedConvParams, depthMultiplier: Int, filter: UnsafePointer<Int8>, filterShape: NHWC,
                 bias: UnsafePointer<Int32>?) {
        let channels = filterShape.channels, taps = filterShape.height * filterShape.width
        guard depthMultiplier == 1, params.filterOffset == 0, taps <= exactFloatProductCount,
              params.outputMultipliers.count == channels else { return nil }
        let sums = (0..<channels).map { c in
            var sum: Int32 = 0
            for t in 0..<taps { sum &+= Int32(filter[t * channels + c]) }
            return sum
        }
        guard let requantization = Int8Requantization(weightSums: sums, bias: bias, convolution: params) else { return nil }
        self.requantization = requantization
        self.params = params
        self.filterShape = filterShape
        let lanes = int8LaneCount, groups = (channels + lanes - 1) / lanes
        var packed = [Float](repeating: 0, count: groups * taps * lanes)
        for c in 0..<channels {
            for t in 0..<taps {
                packed[(c / lanes * taps + t) * lanes + c % lanes] = Float(filter[t * channels + c])
            }
        }
        self.weights = packed
    }
}

/// Optimised int8 DEPTHWISE_CONV_2D: ``int8LaneCount`` channels at a time, the int8 products
/// summed exactly in float lanes (see `exactFloatAccumulatorBias`), then vectorised
/// requantisation. For each output row the input rows its taps reach are first copied into
/// padded rows (padding set to the input zero point, which the folded bias cancels; channels
/// padded to whole vectors with zeros, whose weights are zero too), so every tap is an
/// unchecked vector load. The rows hold ``PaddedRowElement``s.
/// Bit-exact with `quantizedDepthwiseConv2D`. Output rows are split across `pool`'s threads
/// (nil: the calling thread).
///
/// - Parameter scratch: `prepared.scratchCount(outputWidth:threadCount:)` bytes.
public func depthwiseConv2DInt8Optimized(
    _ prepared: PreparedInt8DepthwiseConv2D,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    scratch: UnsafeMutablePointer<Int8>, pool: ThreadPool? = nil
) {
    let rows = outputShape.batch * outputShape.height
    // Rows must be aligned for their elements: start at the first 64-byte boundary.
    let raw = UnsafeMutableRawPointer(scratch)
    let base = raw + (64 - Int(bitPattern: raw) & 63) & 63
    let bytes = prepared.threadScratchBytes(outputWidth: outputShape.width)
    let elements = bytes / MemoryLayout<PaddedRowElement>.stride
    if let pool, pool.threadCount > 1 {
        pool.parallelFor(count: rows, chunks: pool.threadCount) { thread, range in
            depthwiseConv2DInt8Rows(prepared, rows: range, input: input, inputShape: inputShape, output: output,
                                    outputShape: outputShape,
                                    scratch: (base + thread * bytes).bindMemory(to: PaddedRowElement.self, capacity: elements))
        }
    } else {
        depthwiseConv2DInt8Rows(prepared, rows: 0..<rows, input: input, inputShape: inputShape, output: output,
                                outputShape: outputShape, scratch: base.bindMemory(to: PaddedRowElement.self, capacity: elements))
    }
}

/// One thread's share of ``depthwiseConv2DInt8Optimized``: output rows `rows` (indexed
/// `batch * outputHeight + y`).
private func depthwiseConv2DInt8Rows(
    _ prepared: PreparedInt8DepthwiseConv2D, rows: Range<Int>,
    input: UnsafePointer<Int8>, inputShape: NHWC,
    output: UnsafeMutablePointer<Int8>, outputShape: NHWC,
    scratch: UnsafeMutablePointer<PaddedRowElement>
) {
    let g = prepared.params.geometry
    let lanes = int8LaneCount, channels = inputShape.channels, stride = prepared.paddedChannels
    let (kh, kw) = (prepared.filterShape.height, prepared.filterShape.width), taps = kh * kw
    let (sw, dw) = (g.strideWidth, g.dilationWidth)
    let (height, width, outWidth) = (inputShape.height, inputShape.width, outputShape.width)
    let groups = stride / lanes
    let paddedWidth = prepared.paddedWidth(outputWidth: outWidth), rowLength = paddedWidth * stride
    let left = g.paddingWidth.before
    let zeroPoint = paddedRowValue(Int8(truncatingIfNeeded: -prepared.params.inputOffset))
    let elementBytes = MemoryLayout<PaddedRowElement>.stride
    let start = FloatLanes(repeating: exactFloatAccumulatorBias)
    // The input columns that land in the padded row, and where they land.
    let firstColumn = max(0, -left), lastColumn = min(width, paddedWidth - left)

    prepared.weights.withUnsafeBufferPointer { weightBuffer in
    prepared.requantization.withRequantizer { q in
        let weights = UnsafeRawPointer(weightBuffer.baseAddress!), rows0 = UnsafeRawPointer(scratch)
        let rowBytes = rowLength &* elementBytes, tapBytes = dw &* stride &* elementBytes
        let stepBytes = sw &* stride &* elementBytes, groupWeightBytes = taps &* lanes &* 4

        /// One output row from the padded rows, for a `height x width` window. Called with
        /// literal sizes for 3x3 and 5x5, so the tap loops unroll into straight-line code with
        /// constant offsets; with the sizes as variables, the index arithmetic of each tap
        /// outweighed its four multiply-adds.
        @inline(__always) func outputRow(_ outRow: UnsafeMutablePointer<Int8>, height kh: Int, width kw: Int) {
            var ox = 0
            while ox < outWidth {
                // Four neighbouring pixels share each weight load and give the multiply-adds
                // four independent chains. Past the end of the row, missing pixels repeat the
                // last one (their results are not stored), keeping the tap loop branch-free.
                let n = min(4, outWidth &- ox)
                let o1 = min(1, n &- 1) &* stepBytes, o2 = min(2, n &- 1) &* stepBytes, o3 = min(3, n &- 1) &* stepBytes
                let pixels = rows0 + ox &* stepBytes
                for group in 0..<groups {
                    let w = weights + group &* groupWeightBytes
                    let x = pixels + group &* lanes &* elementBytes
                    var acc0 = start, acc1 = start, acc2 = start, acc3 = start
                    for ky in 0..<kh {
                        for kx in 0..<kw {
                            let tap = w.loadUnaligned(fromByteOffset: (ky &* kw &+ kx) &* lanes &* 4, as: FloatLanes.self)
                            let p = x + (ky &* rowBytes &+ kx &* tapBytes)
                            acc0 = multiplyAdd(acc0, loadPaddedRow(p), tap)
                            acc1 = multiplyAdd(acc1, loadPaddedRow(p + o1), tap)
                            acc2 = multiplyAdd(acc2, loadPaddedRow(p + o2), tap)
                            acc3 = multiplyAdd(acc3, loadPaddedRow(p + o3), tap)
                        }
                    }
                    let c = group &* lanes
                    // The four pixels' sums requantised in one call (see `Int8Requantizer.store(rows:...)`).
                    var pixelSums = (exactSums(acc0), exactSums(acc1), exactSums(acc2), exactSums(acc3))
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
            for ky in 0..<kh {
                let iy = iy0 + ky * g.dilationHeight
                let row = scratch + ky * rowLength
                guard iy >= 0, iy < height, firstColumn < lastColumn else {
                    row.update(repeating: zeroPoint, count: rowLength)
                    continue
                }
                let source = input + ((b * height + iy) * width) * channels
                let begin = (firstColumn + left) * stride, end = (lastColumn + left) * stride
                row.update(repeating: zeroPoint, count: begin)
                (row + end).update(repeating: zeroPoint, count: rowLength - end)
                if stride == channels {
                    copyToPaddedRow(source + firstColumn * channels, count: end - begin, to: row + begin)
                } else {
                    // Padding channels must hold finite values (their weights are zero).
                    for ix in firstColumn..<lastColumn {
                        let column = row + (ix + left) * stride
                        copyToPaddedRow(source + ix * channels, count: channels, to: column)
                        (column + channels).update(repeating: 0, count: stride - channels)
                    }
                }
            }
            let outRow = output + r * outWidth * channels
            switch (kh, kw) {
            case (3, 3): outputRow(outRow, height: 3, width: 3)
            case (5, 5): outputRow(outRow, height: 5, width: 5)
            default: outputRow(outRow, height: kh, width: kw)
            }
        }
    }}
}

// The element of the depthwise padded input rows, per instruction set. AVX-512 keeps the int8
// values and converts each tap as it loads it (one widening load and one convert, and a quarter
// of the bytes in cache); SSE2 needs several instructions per conversion, so the portable build
// converts each value once, when it copies the row, and loads floats per tap.
#if TFLITE_AVX512
/// The element of the depthwise padded input rows: the int8 input itself.
typealias PaddedRowElement = Int8

@inline(__always) private func paddedRowValue(_ v: Int8) -> Int8 { v }

@inline(__always)
private func copyToPaddedRow(_ source: UnsafePointer<Int8>, count: Int, to row: UnsafeMutablePointer<Int8>) {
    row.update(from: source, count: count)
}

@inline(__always) private func loadPaddedRow(_ p: UnsafeRawPointer) -> FloatLanes { loadInt8AsFloat(p) }
#else
/// The element of the depthwise padded input rows: the input converted to float.
typealias PaddedRowElement = Float

@inline(__always) private func paddedRowValue(_ v: Int8) -> Float { Float(v) }

@inline(__always)
private func copyToPaddedRow(_ source: UnsafePointer<Int8>, count: Int, to row: UnsafeMutablePointer<Float>) {
    Int8GEMM.convert(source, count: count, to: row)
}

@inline(__always) private func loadPaddedRow(_ p: UnsafeRawPointer) -> FloatLanes { p.loadUnaligned(as: FloatLanes.self) }
#endif

#if TFLITE_ISA_MODULE
import Kernels
#endif
#if TFLITE_VNNI
import X86Intrinsics
#endif

// The taps of a filter row are multiplied in groups of neighbouring taps, four bytes per
// channel: quads of offset bytes (`x ^ 0x80`, uint8) times int8 weights with `vpdpbusd` in the
// AVX-512 VNNI variant, pairs of int16 values with a pair-product instruction elsewhere.
#if TFLITE_VNNI
/// Taps per group: one `vpdpbusd` lane takes four byte products.
let depthwiseTapGroup = 4
/// What the tap rows add to every input value (its sign bit flipped: `x + 128`).
let depthwiseInputBias: Int32 = 128
#else
/// Taps per group: one pair-product lane takes two int16 products.
let depthwiseTapGroup = 2
/// What the tap rows add to every input value: nothing, they hold it widened.
let depthwiseInputBias: Int32 = 0
#endif

/// The packed filter and window of a DEPTHWISE_CONV_2D with depth multiplier 1 on tap rows,
/// whatever becomes of its sums (see ``Int8ConvolutionLayout``). The filter is packed as groups
/// of ``depthwiseTapGroup`` neighbouring taps in groups of ``int8LaneCount`` channels. Built
/// once at prepare.
struct Int8DepthwiseLayout: Int8ConvolutionLayout {
    static var inputBias: Int32 { depthwiseInputBias }
    let geometry: ConvGeometry
    /// The filter's NHWC extents (`[1, height, width, channels]`).
    let filterShape: NHWC
    /// The filter as four-byte tap groups, `[group][filter row][tap group][lane]`: tap group
    /// `q` of a row holds taps `q * depthwiseTapGroup ..<` of each channel side by side (two
    /// int16 or four int8 weights), zero past the row's end; the last group's missing channels
    /// are zero.
    let weights: [UInt32]
    /// The sum of each channel's taps.
    let weightSums: [Int32]

    /// Tap groups per filter row.
    var groupsPerRow: Int { (filterShape.width + depthwiseTapGroup - 1) / depthwiseTapGroup }

    /// Channels rounded up to whole vectors: the channel stride of the padded rows.
    var paddedChannels: Int { (filterShape.channels + int8LaneCount - 1) / int8LaneCount * int8LaneCount }

    /// Columns of a padded input row: every column any output pixel's taps reach, from
    /// `-paddingWidth.before` on.
    func paddedWidth(outputWidth: Int) -> Int {
        (outputWidth - 1) * geometry.strideWidth + (filterShape.width - 1) * geometry.dilationWidth + 1
    }

    /// Padded columns from one tap-row column to the next. Every column the taps read is a
    /// multiple of the stride when a tap group's reach (``depthwiseTapGroup`` dilations) is:
    /// then only those columns are built, which for stride 2 halves a tap row.
    var tapColumnStep: Int {
        depthwiseTapGroup * geometry.dilationWidth % geometry.strideWidth == 0 ? geometry.strideWidth : 1
    }

    /// Columns of one tap row: padded columns `0, tapColumnStep, 2 * tapColumnStep, ...`.
    func tapColumns(outputWidth: Int) -> Int {
        (paddedWidth(outputWidth: outputWidth) + tapColumnStep - 1) / tapColumnStep
    }

    /// Bytes of one tap row (see ``run(input:inputShape:zeroPoint:store:output:outputShape:scratch:pool:)``):
    /// a four-byte tap group per tap-row column and channel.
    func tapRowBytes(outputWidth: Int) -> Int {
        (tapColumns(outputWidth: outputWidth) * paddedChannels * 4 + 63) / 64 * 64
    }

    /// Bytes of the plain row a tap row is built from (int16 values for pairs, offset bytes for
    /// quads): `depthwiseTapGroup - 1` dilations more than a tap row, since each group reaches
    /// that far right.
    func plainRowBytes(outputWidth: Int) -> Int {
        let columns = paddedWidth(outputWidth: outputWidth) + (depthwiseTapGroup - 1) * geometry.dilationWidth
        return (columns * paddedChannels * (4 / depthwiseTapGroup) + 63) / 64 * 64
    }

    /// Bytes of one output row's int32 sums of one group of channels (rounded up to a whole
    /// step of four pixels).
    func rowSumsBytes(outputWidth: Int) -> Int { (outputWidth + 3) / 4 * 4 * int8LaneCount * 4 }

    /// Bytes of one thread's working space: `kernelHeight` tap rows, one plain row and one
    /// row of sums.
    func threadScratchBytes(outputWidth: Int) -> Int {
        filterShape.height * tapRowBytes(outputWidth: outputWidth) + plainRowBytes(outputWidth: outputWidth)
            + rowSumsBytes(outputWidth: outputWidth)
    }

    func scratchBytes(outputShape: NHWC, threadCount: Int) -> Int {
        max(1, threadCount) * threadScratchBytes(outputWidth: outputShape.width) + 64
    }

    /// Packs a filter of symmetric weights (depth multiplier 1).
    init(geometry: ConvGeometry, filter: UnsafePointer<Int8>, filterShape: NHWC) {
        let channels = filterShape.channels, (kh, kw) = (filterShape.height, filterShape.width)
        self.geometry = geometry
        self.filterShape = filterShape
        weightSums = (0..<channels).map { c in
            var sum: Int32 = 0
            for t in 0..<(kh * kw) { sum &+= Int32(filter[t * channels + c]) }
            return sum
        }
        let lanes = int8LaneCount, groups = (channels + lanes - 1) / lanes
        let size = depthwiseTapGroup, perRow = (kw + size - 1) / size
        var packed = [UInt32](repeating: 0, count: groups * kh * perRow * lanes)
        for c in 0..<channels {
            for ky in 0..<kh {
                for kx in 0..<kw {
                    let at = ((c / lanes * kh + ky) * perRow + kx / size) * lanes + c % lanes
                    // Tap `kx % size` of the group: an int16 in a pair, a byte in a quad.
                    let bits = 32 / size, w = UInt32(truncatingIfNeeded: Int32(filter[(ky * kw + kx) * channels + c]))
                    packed[at] |= (w & (UInt32.max >> (32 - bits))) << (bits * (kx % size))
                }
            }
        }
        self.weights = packed
    }

    /// The depthwise convolution of an int8 input whose zero point is `zeroPoint`:
    /// ``int8LaneCount`` channels at a time, ``depthwiseTapGroup`` taps per instruction
    /// (`vpdpbusd` with AVX-512 VNNI, a pair product elsewhere: `pmaddwd` on SSE2), int32 sums,
    /// which `store` converts a vector at a time.
    ///
    /// Each input row a window reaches is first rebuilt as a *tap row*: for every padded column
    /// `j` the taps can start at (every ``tapColumnStep``-th) and every channel, the group
    /// `(x[j], x[j + d], ...)` of ``depthwiseTapGroup`` values `d = dilationWidth` apart (int16
    /// pairs, or quads of offset bytes), padding set to the zero point (which the store's
    /// correction cancels). Tap group `q` of a filter row is then
    /// one load at column `q * depthwiseTapGroup * d` times one packed weight group, with no
    /// widening or shuffling per tap. Tap rows are kept in a ring of `kernelHeight` slots, so a
    /// row shared by consecutive output rows is built once.
    /// Output rows are split across `pool`'s threads (nil: the calling thread).
    ///
    /// - Parameter scratch: ``scratchBytes(outputShape:threadCount:)`` bytes.
    func run<Store: Int8SumsStore>(input: UnsafePointer<Int8>, inputShape: NHWC, zeroPoint: Int8, store: Store,
                                   output: UnsafeMutablePointer<Store.Element>, outputShape: NHWC,
                                   scratch: UnsafeMutablePointer<Int8>?, pool: ThreadPool?) {
        let rows = outputShape.batch * outputShape.height
        let base = Int8TileDriver.aligned(scratch)
        let bytes = threadScratchBytes(outputWidth: outputShape.width)
        if let pool, pool.threadCount > 1 {
            pool.parallelFor(count: rows, chunks: pool.threadCount) { thread, range in
                depthwiseRows(self, rows: range, input: input, inputShape: inputShape, zeroPoint: zeroPoint, store: store,
                              output: output, outputShape: outputShape, scratch: base + thread * bytes)
            }
        } else {
            depthwiseRows(self, rows: 0..<rows, input: input, inputShape: inputShape, zeroPoint: zeroPoint, store: store,
                          output: output, outputShape: outputShape, scratch: base)
        }
    }
}

/// One thread's share of ``Int8DepthwiseLayout/run(input:inputShape:zeroPoint:store:output:outputShape:scratch:pool:)``:
/// output rows `rows` (indexed `batch * outputHeight + y`).
private func depthwiseRows<Store: Int8SumsStore>(
    _ layout: Int8DepthwiseLayout, rows: Range<Int>,
    input: UnsafePointer<Int8>, inputShape: NHWC, zeroPoint: Int8, store q: Store,
    output: UnsafeMutablePointer<Store.Element>, outputShape: NHWC,
    scratch: UnsafeMutableRawPointer
) {
    let g = layout.geometry
    let lanes = int8LaneCount, channels = inputShape.channels, stride = layout.paddedChannels
    let (kh, kw) = (layout.filterShape.height, layout.filterShape.width), tapGroups = layout.groupsPerRow
    let (sw, dw) = (g.strideWidth, g.dilationWidth)
    let outWidth = outputShape.width
    let groups = stride / lanes
    let tapRowBytes = layout.tapRowBytes(outputWidth: outWidth)
    let builder = TapRowBuilder(layout: layout, inputShape: inputShape, outputWidth: outWidth, zeroPoint: zeroPoint,
                                plain: scratch + kh * tapRowBytes)
    let rowSums = scratch + kh * tapRowBytes + layout.plainRowBytes(outputWidth: outWidth)

    withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * kh) { ring in
    layout.weights.withUnsafeBufferPointer { weightBuffer in
        // Which input row each slot holds (`slotRows`), and the slot of each filter row for
        // the current output row (`rowSlots`); `needed` is scratch for the lookup.
        let slotRows = ring.baseAddress!, rowSlots = slotRows + kh, needed = rowSlots + kh
        slotRows.initialize(repeating: Int.min, count: kh)
        let weights = UnsafeRawPointer(weightBuffer.baseAddress!), slots = UnsafeRawPointer(scratch)
        let step = layout.tapColumnStep
        let pixelBytes = sw / step &* stride &* 4, tapGroupBytes = depthwiseTapGroup &* dw / step &* stride &* 4
        let groupWeightBytes = kh &* tapGroups &* lanes &* 4

        /// One output row from the tap rows, for a `height x tapGroups` window. Called with
        /// literal sizes for 3x3 and 5x5, so the tap loops unroll into straight-line code with
        /// constant offsets. A group of channels at a time: its sums for the whole row go to
        /// `rowSums`, then `store` converts them in one call, loading the group's constants
        /// once per row (per four pixels, they were a fifth of the store's instructions).
        @inline(__always) func outputRow(_ outRow: UnsafeMutablePointer<Store.Element>, height kh: Int, tapGroups: Int) {
            for group in 0..<groups {
                let w = weights + group &* groupWeightBytes
                var ox = 0
                while ox < outWidth {
                    // Four neighbouring pixels share each weight load and give the products four
                    // independent chains. Past the end of the row, missing pixels repeat the
                    // last one (their sums are not stored), keeping the tap loop branch-free.
                    let n = min(4, outWidth &- ox)
                    let o1 = min(1, n &- 1) &* pixelBytes, o2 = min(2, n &- 1) &* pixelBytes, o3 = min(3, n &- 1) &* pixelBytes
                    let x = ox &* pixelBytes &+ group &* lanes &* 4
                    var acc0 = Int32Lanes(), acc1 = Int32Lanes(), acc2 = Int32Lanes(), acc3 = Int32Lanes()
                    for ky in 0..<kh {
                        let row = slots + (rowSlots[ky] &* tapRowBytes &+ x)
                        for q in 0..<tapGroups {
                            let tap = w.loadUnaligned(fromByteOffset: (ky &* tapGroups &+ q) &* lanes &* 4, as: Int32Lanes.self)
                            let p = row + q &* tapGroupBytes
                            tapProducts(&acc0, p.loadUnaligned(as: Int32Lanes.self), tap)
                            tapProducts(&acc1, p.loadUnaligned(fromByteOffset: o1, as: Int32Lanes.self), tap)
                            tapProducts(&acc2, p.loadUnaligned(fromByteOffset: o2, as: Int32Lanes.self), tap)
                            tapProducts(&acc3, p.loadUnaligned(fromByteOffset: o3, as: Int32Lanes.self), tap)
                        }
                    }
                    let sums = rowSums + ox &* lanes &* 4
                    sums.storeBytes(of: acc0, as: Int32Lanes.self)
                    sums.storeBytes(of: acc1, toByteOffset: lanes &* 4, as: Int32Lanes.self)
                    sums.storeBytes(of: acc2, toByteOffset: 2 &* lanes &* 4, as: Int32Lanes.self)
                    sums.storeBytes(of: acc3, toByteOffset: 3 &* lanes &* 4, as: Int32Lanes.self)
                    ox &+= n
                }
                let c = group &* lanes
                q.store(rows: UnsafeRawPointer(rowSums), sumStride: lanes &* 4, rowCount: outWidth, group: group,
                        to: outRow + c, outStride: channels, count: min(lanes, channels &- c))
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
                builder.build(batch: b, y: iy0 + ky * g.dilationHeight, input: input, into: scratch + s * tapRowBytes)
            }
            let outRow = output + r * outWidth * channels
            switch (kh, kw) {
            case (3, 3): outputRow(outRow, height: 3, tapGroups: (3 + depthwiseTapGroup - 1) / depthwiseTapGroup)
            case (5, 5): outputRow(outRow, height: 5, tapGroups: (5 + depthwiseTapGroup - 1) / depthwiseTapGroup)
            default: outputRow(outRow, height: kh, tapGroups: tapGroups)
            }
        }
    }}
}

/// `acc` plus the products of one vector of tap groups of input values with one of weights.
@inline(__always)
private func tapProducts(_ acc: inout Int32Lanes, _ x: Int32Lanes, _ w: Int32Lanes) {
    #if TFLITE_VNNI
    acc = accumulatingQuadProducts(acc, unsignedBytes: x, signedBytes: w)
    #else
    acc &+= vectorPairProducts(unsafeBitCast(x, to: Int16PairLanes.self), unsafeBitCast(w, to: Int16PairLanes.self))
    #endif
}

/// Builds the tap rows of ``Int8DepthwiseLayout/run(input:inputShape:zeroPoint:store:output:outputShape:scratch:pool:)``: the input row copied into a plain
/// padded row (widened to int16 for pairs, sign bits flipped for quads), then every
/// `columnStep`-th column interleaved with the ``depthwiseTapGroup`` `- 1` columns
/// `dilationWidth` apart to its right.
private struct TapRowBuilder {
    let input: NHWC
    let stride: Int
    let paddedWidth: Int
    /// Padded columns between two tap-row columns, and the tap row's columns.
    let columnStep: Int, tapColumns: Int
    let dilation: Int
    /// Input columns that land in the padded row, and the padding before the first.
    let firstColumn: Int, lastColumn: Int, left: Int
    /// The padding value: the zero point as the plain row stores it.
    let zeroPoint: PlainValue
    /// The plain row: `paddedWidth + (depthwiseTapGroup - 1) * dilation` columns of `stride` values.
    let plain: UnsafeMutablePointer<PlainValue>

    #if TFLITE_VNNI
    typealias PlainValue = UInt8
    #else
    typealias PlainValue = Int16
    #endif

    init(layout: Int8DepthwiseLayout, inputShape: NHWC, outputWidth: Int, zeroPoint: Int8, plain: UnsafeMutableRawPointer) {
        input = inputShape
        stride = layout.paddedChannels
        paddedWidth = layout.paddedWidth(outputWidth: outputWidth)
        columnStep = layout.tapColumnStep
        tapColumns = layout.tapColumns(outputWidth: outputWidth)
        dilation = layout.geometry.dilationWidth
        left = layout.geometry.paddingWidth.before
        firstColumn = max(0, -left)
        lastColumn = min(inputShape.width, paddedWidth + (depthwiseTapGroup - 1) * dilation - left)
        // Padding taps must contribute nothing: x = zero point is what the store's correction
        // cancels.
        self.zeroPoint = Self.plainValue(zeroPoint)
        self.plain = plain.assumingMemoryBound(to: PlainValue.self)
    }

    /// `x` as the plain row stores it.
    static func plainValue(_ x: Int8) -> PlainValue {
        #if TFLITE_VNNI
        UInt8(bitPattern: x) ^ 0x80
        #else
        Int16(x)
        #endif
    }

    /// Copies `count` input values into the plain row.
    @inline(__always)
    func copy(_ source: UnsafePointer<Int8>, count: Int, to destination: UnsafeMutablePointer<PlainValue>) {
        #if TFLITE_VNNI
        let raw = UnsafeRawPointer(source), out = UnsafeMutableRawPointer(destination)
        let signs: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        // On 64-bit lanes: a 64-lane byte vector's splat was built lane by lane.
        while i &+ 64 <= count {
            out.storeBytes(of: raw.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt64>.self) ^ SIMD8(repeating: signs),
                           toByteOffset: i, as: SIMD8<UInt64>.self)
            i &+= 64
        }
        while i &+ 8 <= count {
            out.storeBytes(of: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ signs, toByteOffset: i, as: UInt64.self)
            i &+= 8
        }
        while i < count {
            destination[i] = Self.plainValue(source[i])
            i &+= 1
        }
        #else
        Int8GEMM.convert(source, count: count, to: destination)
        #endif
    }

    /// Writes the tap row of input row `y` of `batch` (a row of zero points when `y` is
    /// outside the input) to `row`.
    func build(batch: Int, y: Int, input source: UnsafePointer<Int8>, into row: UnsafeMutableRawPointer) {
        let columns = paddedWidth + (depthwiseTapGroup - 1) * dilation, channels = input.channels
        guard y >= 0, y < input.height, firstColumn < lastColumn else {
            row.bindMemory(to: PlainValue.self, capacity: tapColumns * stride * depthwiseTapGroup)
                .update(repeating: zeroPoint, count: tapColumns * stride * depthwiseTapGroup)
            return
        }
        let begin = (firstColumn + left) * stride, end = (lastColumn + left) * stride
        plain.update(repeating: zeroPoint, count: begin)
        (plain + end).update(repeating: zeroPoint, count: columns * stride - end)
        let sourceRow = source + ((batch * input.height + y) * input.width) * channels
        if stride == channels {
            copy(sourceRow + firstColumn * channels, count: end - begin, to: plain + begin)
        } else {
            // The padding channels' weights are zero; they are zeroed so no stale value is read.
            for ix in firstColumn..<lastColumn {
                let column = plain + (ix + left) * stride
                copy(sourceRow + ix * channels, count: channels, to: column)
                (column + channels).update(repeating: 0, count: stride - channels)
            }
        }
        let lanes = int8LaneCount, vectors = stride / lanes
        let from = UnsafeRawPointer(plain)
        let columnBytes = stride &* MemoryLayout<PlainValue>.stride, shiftBytes = dilation &* columnBytes
        let laneBytes = lanes &* MemoryLayout<PlainValue>.stride
        for t in 0..<tapColumns {
            for v in 0..<vectors {
                // Tap-row column `t` is padded column `t * columnStep`.
                let offset = t &* columnStep &* columnBytes &+ v &* laneBytes, target = t &* columnBytes &+ v &* laneBytes
                #if TFLITE_VNNI
                let quad = interleavedQuads(from.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self),
                                            from.loadUnaligned(fromByteOffset: offset &+ shiftBytes, as: SIMD16<UInt8>.self),
                                            from.loadUnaligned(fromByteOffset: offset &+ 2 &* shiftBytes, as: SIMD16<UInt8>.self),
                                            from.loadUnaligned(fromByteOffset: offset &+ 3 &* shiftBytes, as: SIMD16<UInt8>.self))
                row.storeBytes(of: quad, toByteOffset: 4 &* target, as: SIMD64<UInt8>.self)
                #else
                let pair = interleaved(from.loadUnaligned(fromByteOffset: offset, as: Int16Lanes.self),
                                       from.loadUnaligned(fromByteOffset: offset &+ shiftBytes, as: Int16Lanes.self))
                row.storeBytes(of: pair, toByteOffset: 2 &* target, as: Int16PairLanes.self)
                #endif
            }
        }
    }
}

#if TFLITE_VNNI
/// The lanes of four byte vectors interleaved (`a[0], b[0], c[0], d[0], a[1], ...`): each
/// channel's quad of a tap row. With the four vectors side by side, a lane permute gathers
/// 32-bit group `g` of each into block `g` (a 4x4 transpose of groups), then a byte shuffle
/// transposes each block's 4x4 bytes, putting channel `4g + r`'s quad at group `4g + r`. LLVM
/// turns the constant permute and shuffle into half-width permutes, shuffles and a merge, which
/// measured faster than the two instructions kept as written; widening each byte to 32 bits,
/// shifting and merging, as before, was slower than both.
@inline(__always)
private func interleavedQuads(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>, _ c: SIMD16<UInt8>, _ d: SIMD16<UInt8>) -> SIMD64<UInt8> {
    let sources = SIMD64(lowHalf: SIMD32(lowHalf: a, highHalf: b), highHalf: SIMD32(lowHalf: c, highHalf: d))
    let groups = permutedLanes(unsafeBitCast(sources, to: SIMD16<UInt32>.self),
                               index: SIMD16(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15))
    let block = SIMD16<UInt8>(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15)
    let blocks = SIMD32(lowHalf: block, highHalf: block)
    return shuffledBytesInBlocks(unsafeBitCast(groups, to: SIMD64<UInt8>.self), control: SIMD64(lowHalf: blocks, highHalf: blocks))
}
#endif

#if TFLITE_ISA_MODULE
import Kernels
#endif
#if TFLITE_VNNI
import X86Intrinsics
#endif
/// `sum a[i] * b[i]` of two int8 vectors with int32 accumulation, one pair-product vector
/// (``int8PairLaneCount`` values) at a time: both sides widened to int16, then each int32 lane
/// takes two adjacent products (`pmaddwd` on SSE2, `vpmaddwd` or `vpdpwssd` with AVX-512).
/// Every product of int8 values and every pair sum fits int32 exactly, and int32 sums wrap
/// like the reference's, in any order.
@inline(__always)
func int8DotProduct(_ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, count: Int) -> Int32 {
    var lanes = Int32Lanes()
    var i = 0
    let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
    while i &+ int8PairLaneCount <= count {
        lanes &+= vectorPairProducts(loadInt8AsInt16Pairs(ra + i), loadInt8AsInt16Pairs(rb + i))
        i &+= int8PairLaneCount
    }
    var sum = lanes.wrappedSum()
    while i < count {
        sum &+= Int32(a[i]) &* Int32(b[i])
        i &+= 1
    }
    return sum
}

#if TFLITE_VNNI
/// What ``int8DotProduct4(_:rows:rowStride:count:)`` adds to every value of `x`: it returns
/// `sum (x[i] + 128) * row[i]`, so a caller folds `-128 * sum(row)` into its bias.
let int8DotProduct4InputBias: Int32 = 128

/// Four dot products of one int8 vector `x` with four int8 rows (`rows + k * rowStride`),
/// each value of `x` read as the uint8 `x + 128` (``int8DotProduct4InputBias``): `vpdpbusd`
/// takes 64 products per instruction, unsigned by signed bytes, with `x`'s sign bits flipped
/// once per load for all four rows.
@inline(__always)
func int8DotProduct4(_ x: UnsafePointer<Int8>, rows: UnsafePointer<Int8>, rowStride: Int, count: Int) -> SIMD4<Int32> {
    var l0 = SIMD16<Int32>(), l1 = SIMD16<Int32>(), l2 = SIMD16<Int32>(), l3 = SIMD16<Int32>()
    let rx = UnsafeRawPointer(x), rw = UnsafeRawPointer(rows)
    let signs = SIMD16<Int32>(repeating: Int32(bitPattern: 0x8080_8080))
    var i = 0
    while i &+ 64 <= count {
        let v = rx.loadUnaligned(fromByteOffset: i, as: SIMD16<Int32>.self) ^ signs
        @inline(__always) func row(_ k: Int) -> SIMD16<Int32> {
            rw.loadUnaligned(fromByteOffset: k &* rowStride &+ i, as: SIMD16<Int32>.self)
        }
        l0 = accumulatingQuadProducts(l0, unsignedBytes: v, signedBytes: row(0))
        l1 = accumulatingQuadProducts(l1, unsignedBytes: v, signedBytes: row(1))
        l2 = accumulatingQuadProducts(l2, unsignedBytes: v, signedBytes: row(2))
        l3 = accumulatingQuadProducts(l3, unsignedBytes: v, signedBytes: row(3))
        i &+= 64
    }
    var sums = SIMD4<Int32>(l0.wrappedSum(), l1.wrappedSum(), l2.wrappedSum(), l3.wrappedSum())
    while i < count {
        let v = Int32(x[i]) &+ 128
        sums &+= SIMD4(v &* Int32(rows[i]), v &* Int32(rows[rowStride + i]),
                       v &* Int32(rows[2 * rowStride + i]), v &* Int32(rows[3 * rowStride + i]))
        i += 1
    }
    return sums
}
#else
/// What ``int8DotProduct4(_:rows:rowStride:count:)`` adds to every value of `x`: nothing here.
let int8DotProduct4InputBias: Int32 = 0

/// Four dot products of one int8 vector `x` with four int8 rows (`rows + k * rowStride`),
/// sharing the loads and widening of `x` (see ``int8DotProduct(_:_:count:)``). Multiplying
/// widened int16 lanes and widening each product to int32 took about four times the
/// instructions: efficientnet_lite0's 1280 -> 1000 classifier took 0.45 ms (SSE2) and 0.24 ms
/// (AVX-512), against 0.30-0.33 and 0.18 ms this way.
@inline(__always)
func int8DotProduct4(_ x: UnsafePointer<Int8>, rows: UnsafePointer<Int8>, rowStride: Int, count: Int) -> SIMD4<Int32> {
    var l0 = Int32Lanes(), l1 = Int32Lanes(), l2 = Int32Lanes(), l3 = Int32Lanes()
    let rx = UnsafeRawPointer(x), rw = UnsafeRawPointer(rows)
    var i = 0
    while i &+ int8PairLaneCount <= count {
        let v = loadInt8AsInt16Pairs(rx + i)
        l0 &+= vectorPairProducts(v, loadInt8AsInt16Pairs(rw + i))
        l1 &+= vectorPairProducts(v, loadInt8AsInt16Pairs(rw + (rowStride &+ i)))
        l2 &+= vectorPairProducts(v, loadInt8AsInt16Pairs(rw + (2 &* rowStride &+ i)))
        l3 &+= vectorPairProducts(v, loadInt8AsInt16Pairs(rw + (3 &* rowStride &+ i)))
        i &+= int8PairLaneCount
    }
    var sums = SIMD4<Int32>(l0.wrappedSum(), l1.wrappedSum(), l2.wrappedSum(), l3.wrappedSum())
    while i < count {
        let v = Int32(x[i])
        sums &+= SIMD4(v &* Int32(rows[i]), v &* Int32(rows[rowStride + i]),
                       v &* Int32(rows[2 * rowStride + i]), v &* Int32(rows[3 * rowStride + i]))
        i += 1
    }
    return sums
}
#endif

/// The dot products of `row` (`depth` int8 values) with output channels `channels` of
/// `filter` (`[outputDepth, depth]`), four channels per ``int8DotProduct4(_:rows:rowStride:count:)``;
/// `finish(sum, channel)` takes each. Every sum comes from that function, so each carries its
/// ``int8DotProduct4InputBias``. A last group of fewer than four channels reuses the four rows
/// ending at its last channel (dropping the sums of channels already done, here or on another
/// thread), or, with fewer than four channels in all, each row four times over.
@inline(__always)
func int8ChannelDotProducts(_ row: UnsafePointer<Int8>, filter: UnsafePointer<Int8>, depth: Int, channels: Range<Int>,
                            _ finish: (_ sum: Int32, _ channel: Int) -> Void) {
    var oc = channels.lowerBound
    while oc + 4 <= channels.upperBound {
        let sums = int8DotProduct4(row, rows: filter + oc * depth, rowStride: depth, count: depth)
        for j in 0..<4 { finish(sums[j], oc + j) }
        oc += 4
    }
    let left = channels.upperBound - oc
    if left > 0 && channels.upperBound >= 4 {
        let sums = int8DotProduct4(row, rows: filter + (channels.upperBound - 4) * depth, rowStride: depth, count: depth)
        for j in 0..<left { finish(sums[4 - left + j], oc + j) }
    } else {
        for j in 0..<left { finish(int8DotProduct4(row, rows: filter + (oc + j) * depth, rowStride: 0, count: depth)[0], oc + j) }
    }
}

/// Runs `body` over ranges of `outputDepth` output channels in groups of four, split across
/// `pool`'s threads when `work` (multiply-adds) pays for it, else on the calling thread.
@inline(__always)
func forEachChannelQuadRange(outputDepth: Int, pool: ThreadPool?, work: Int, _ body: (_ channels: Range<Int>) -> Void) {
    ThreadPool.split(pool, count: (outputDepth + 3) / 4, work: work) { groups in
        body((groups.lowerBound * 4)..<min(groups.upperBound * 4, outputDepth))
    }
}

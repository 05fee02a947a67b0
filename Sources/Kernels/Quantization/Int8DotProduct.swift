/// `sum a[i] * b[i]` of two int8 vectors with int32 accumulation, 16 lanes at a time.
///
/// Products are formed in int16 lanes (an int8 x int8 product always fits: its range is
/// [-16256, 16384]) and widened to int32 before accumulating: baseline x86-64 (SSE2) has a
/// 16-bit lane multiply but no 32-bit one, so this is several times cheaper than multiplying
/// widened int32 lanes, and exact.
@inline(__always)
func int8DotProduct(_ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, count: Int) -> Int32 {
    var lanes = SIMD16<Int32>()
    var i = 0
    let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
    while i + 16 <= count {
        let x = widenedToInt16(ra.loadUnaligned(fromByteOffset: i, as: SIMD16<Int8>.self))
        let y = widenedToInt16(rb.loadUnaligned(fromByteOffset: i, as: SIMD16<Int8>.self))
        lanes &+= widenedToInt32(x &* y)
        i += 16
    }
    var sum = lanes.wrappedSum()
    while i < count {
        sum &+= Int32(a[i]) &* Int32(b[i])
        i += 1
    }
    return sum
}

/// Four dot products of one int8 vector `x` with four int8 rows (`rows + k * rowStride`),
/// sharing the loads of `x`.
@inline(__always)
func int8DotProduct4(_ x: UnsafePointer<Int8>, rows: UnsafePointer<Int8>, rowStride: Int, count: Int) -> SIMD4<Int32> {
    var l0 = SIMD16<Int32>(), l1 = SIMD16<Int32>(), l2 = SIMD16<Int32>(), l3 = SIMD16<Int32>()
    let rx = UnsafeRawPointer(x), rw = UnsafeRawPointer(rows)
    var i = 0
    while i + 16 <= count {
        let v = widenedToInt16(rx.loadUnaligned(fromByteOffset: i, as: SIMD16<Int8>.self))
        l0 &+= product(v, rw, i)
        l1 &+= product(v, rw, rowStride + i)
        l2 &+= product(v, rw, 2 * rowStride + i)
        l3 &+= product(v, rw, 3 * rowStride + i)
        i += 16
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

/// Sixteen int8 x int8 products (`v` already widened) as int32 lanes, via an int16 multiply.
@inline(__always)
private func product(_ v: SIMD16<Int16>, _ base: UnsafeRawPointer, _ offset: Int) -> SIMD16<Int32> {
    let w = widenedToInt16(base.loadUnaligned(fromByteOffset: offset, as: SIMD16<Int8>.self))
    return widenedToInt32(v &* w)
}

/// Sign-extends sixteen int8 lanes to int16. Spelled out lane by lane: the standard library's
/// generic conversions stay calls to lane-loop functions inside large kernels, while this form
/// compiles to one widening instruction (a few unpacks on SSE2).
@inline(__always)
func widenedToInt16(_ v: SIMD16<Int8>) -> SIMD16<Int16> {
    SIMD16(Int16(v[0]), Int16(v[1]), Int16(v[2]), Int16(v[3]), Int16(v[4]), Int16(v[5]), Int16(v[6]), Int16(v[7]),
           Int16(v[8]), Int16(v[9]), Int16(v[10]), Int16(v[11]), Int16(v[12]), Int16(v[13]), Int16(v[14]), Int16(v[15]))
}

/// Sign-extends sixteen int16 lanes to int32 (lane by lane, as `widenedToInt16`).
@inline(__always)
func widenedToInt32(_ v: SIMD16<Int16>) -> SIMD16<Int32> {
    SIMD16(Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]),
           Int32(v[8]), Int32(v[9]), Int32(v[10]), Int32(v[11]), Int32(v[12]), Int32(v[13]), Int32(v[14]), Int32(v[15]))
}

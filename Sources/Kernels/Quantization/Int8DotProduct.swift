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

/// Sign-extends sixteen int8 lanes to int16. Built from 8-lane halves: the standard library's
/// 16-lane conversion is not inlined and runs as a call with a scalar loop, the 8-lane one
/// compiles to a few vector instructions.
@inline(__always)
func widenedToInt16(_ v: SIMD16<Int8>) -> SIMD16<Int16> {
    SIMD16(lowHalf: SIMD8<Int16>(truncatingIfNeeded: v.lowHalf), highHalf: SIMD8<Int16>(truncatingIfNeeded: v.highHalf))
}

/// Sign-extends sixteen int16 lanes to int32 (8-lane halves, as `widenedToInt16`).
@inline(__always)
func widenedToInt32(_ v: SIMD16<Int16>) -> SIMD16<Int32> {
    SIMD16(lowHalf: SIMD8<Int32>(truncatingIfNeeded: v.lowHalf), highHalf: SIMD8<Int32>(truncatingIfNeeded: v.highHalf))
}

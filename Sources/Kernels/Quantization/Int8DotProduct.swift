/// `sum a[i] * b[i]` of two int8 vectors with int32 accumulation, 16 lanes at a time (each
/// lane widened to int32, so no intermediate can overflow for any realistic length).
@inline(__always)
func int8DotProduct(_ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, count: Int) -> Int32 {
    var lanes = SIMD16<Int32>()
    var i = 0
    let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
    while i + 16 <= count {
        let x = SIMD16<Int32>(truncatingIfNeeded: ra.loadUnaligned(fromByteOffset: i, as: SIMD16<Int8>.self))
        let y = SIMD16<Int32>(truncatingIfNeeded: rb.loadUnaligned(fromByteOffset: i, as: SIMD16<Int8>.self))
        lanes &+= x &* y
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
        let v = SIMD16<Int32>(truncatingIfNeeded: rx.loadUnaligned(fromByteOffset: i, as: SIMD16<Int8>.self))
        l0 &+= v &* SIMD16<Int32>(truncatingIfNeeded: rw.loadUnaligned(fromByteOffset: i, as: SIMD16<Int8>.self))
        l1 &+= v &* SIMD16<Int32>(truncatingIfNeeded: rw.loadUnaligned(fromByteOffset: rowStride + i, as: SIMD16<Int8>.self))
        l2 &+= v &* SIMD16<Int32>(truncatingIfNeeded: rw.loadUnaligned(fromByteOffset: 2 * rowStride + i, as: SIMD16<Int8>.self))
        l3 &+= v &* SIMD16<Int32>(truncatingIfNeeded: rw.loadUnaligned(fromByteOffset: 3 * rowStride + i, as: SIMD16<Int8>.self))
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

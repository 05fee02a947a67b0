/// CAST between numeric and boolean element types.
///
/// Integer-to-integer conversions wrap (C++ `static_cast`); float-to-integer truncates toward
/// zero and, where C++ would be undefined, saturates (NaN gives 0); anything to bool is
/// `value != 0`; bool reads as 0 or 1.
public enum Cast {
    /// Converts `count` elements of type `from` at `input` into type `to` at `output`.
    public static func apply(input: UnsafeRawPointer, from: CastType, output: UnsafeMutableRawPointer,
                             to: CastType, count: Int) {
        if from == to {
            output.copyMemory(from: input, byteCount: count * from.byteSize)
            return
        }
        // Image bytes to floats, the cast at the front of detector models: a typed loop the
        // compiler vectorises, where the generic path below dispatches on both types per element.
        if to == .float32 && (from == .uInt8 || from == .int8) {
            let dst = output.assumingMemoryBound(to: Float.self)
            if from == .uInt8 {
                let src = input.assumingMemoryBound(to: UInt8.self)
                for i in 0..<count { dst[i] = Float(src[i]) }
            } else {
                let src = input.assumingMemoryBound(to: Int8.self)
                for i in 0..<count { dst[i] = Float(src[i]) }
            }
            return
        }
        for i in 0..<count {
            let src = input + i * from.byteSize, dst = output + i * to.byteSize
            if from.isFloatingPoint {
                store(float: readFloat(src, from), dst, to)
            } else {
                store(integer: readInteger(src, from), dst, to)
            }
        }
    }

    /// An integer or boolean source value, widened without loss (uint64 above Int64.max keeps
    /// its bits in the wrapped sense C++ uses for narrowing).
    @inline(__always)
    static func readInteger(_ p: UnsafeRawPointer, _ type: CastType) -> (value: Int64, unsigned: UInt64?) {
        switch type {
        case .int8: return (Int64(p.load(as: Int8.self)), nil)
        case .uInt8: return (Int64(p.load(as: UInt8.self)), nil)
        case .bool: return (p.load(as: UInt8.self) != 0 ? 1 : 0, nil)
        case .int16: return (Int64(p.loadUnaligned(as: Int16.self)), nil)
        case .uInt16: return (Int64(p.loadUnaligned(as: UInt16.self)), nil)
        case .int32: return (Int64(p.loadUnaligned(as: Int32.self)), nil)
        case .uInt32: return (Int64(p.loadUnaligned(as: UInt32.self)), nil)
        case .int64: return (p.loadUnaligned(as: Int64.self), nil)
        case .uInt64:
            let u = p.loadUnaligned(as: UInt64.self)
            return (Int64(bitPattern: u), u)
        case .float32, .float16, .bFloat16, .float64: return (0, nil)
        }
    }

    @inline(__always)
    static func readFloat(_ p: UnsafeRawPointer, _ type: CastType) -> Double {
        switch type {
        case .float32: return Double(p.loadUnaligned(as: Float.self))
        case .float16: return Double(HalfPrecision.float(fromBits: p.loadUnaligned(as: UInt16.self)))
        case .bFloat16: return Double(BFloat16.float(fromBits: p.loadUnaligned(as: UInt16.self)))
        default: return p.loadUnaligned(as: Double.self)
        }
    }

    @inline(__always)
    static func store(integer source: (value: Int64, unsigned: UInt64?), _ p: UnsafeMutableRawPointer, _ type: CastType) {
        let v = source.value
        switch type {
        case .int8: p.storeBytes(of: Int8(truncatingIfNeeded: v), as: Int8.self)
        case .uInt8: p.storeBytes(of: UInt8(truncatingIfNeeded: v), as: UInt8.self)
        case .bool: p.storeBytes(of: v != 0 ? 1 : 0, as: UInt8.self)
        case .int16: p.storeBytes(of: Int16(truncatingIfNeeded: v), as: Int16.self)
        case .uInt16: p.storeBytes(of: UInt16(truncatingIfNeeded: v), as: UInt16.self)
        case .int32: p.storeBytes(of: Int32(truncatingIfNeeded: v), as: Int32.self)
        case .uInt32: p.storeBytes(of: UInt32(truncatingIfNeeded: v), as: UInt32.self)
        case .int64: p.storeBytes(of: v, as: Int64.self)
        case .uInt64: p.storeBytes(of: UInt64(bitPattern: v), as: UInt64.self)
        case .float32: p.storeBytes(of: source.unsigned.map { Float($0) } ?? Float(v), as: Float.self)
        case .float64: p.storeBytes(of: source.unsigned.map { Double($0) } ?? Double(v), as: Double.self)
        case .float16: p.storeBytes(of: HalfPrecision.bits(from: source.unsigned.map { Float($0) } ?? Float(v)), as: UInt16.self)
        case .bFloat16: p.storeBytes(of: BFloat16.bits(from: source.unsigned.map { Float($0) } ?? Float(v)), as: UInt16.self)
        }
    }

    @inline(__always)
    static func store(float v: Double, _ p: UnsafeMutableRawPointer, _ type: CastType) {
        switch type {
        case .float32: p.storeBytes(of: Float(v), as: Float.self)
        case .float64: p.storeBytes(of: v, as: Double.self)
        case .float16: p.storeBytes(of: HalfPrecision.bits(from: Float(v)), as: UInt16.self)
        case .bFloat16: p.storeBytes(of: BFloat16.bits(from: Float(v)), as: UInt16.self)
        case .bool: p.storeBytes(of: v != 0 ? 1 : 0, as: UInt8.self)
        case .int8: p.storeBytes(of: saturating(v, as: Int8.self), as: Int8.self)
        case .uInt8: p.storeBytes(of: saturating(v, as: UInt8.self), as: UInt8.self)
        case .int16: p.storeBytes(of: saturating(v, as: Int16.self), as: Int16.self)
        case .uInt16: p.storeBytes(of: saturating(v, as: UInt16.self), as: UInt16.self)
        case .int32: p.storeBytes(of: saturating(v, as: Int32.self), as: Int32.self)
        case .uInt32: p.storeBytes(of: saturating(v, as: UInt32.self), as: UInt32.self)
        case .int64: p.storeBytes(of: saturating(v, as: Int64.self), as: Int64.self)
        case .uInt64: p.storeBytes(of: saturating(v, as: UInt64.self), as: UInt64.self)
        }
    }

    /// Truncation toward zero, clamped to the type's range; NaN gives 0.
    @inline(__always)
    static func saturating<T: FixedWidthInteger>(_ v: Double, as: T.Type) -> T {
        if v.isNaN { return 0 }
        let t = v.rounded(.towardZero)
        if t <= Double(T.min) { return T.min }
        if t >= Double(T.max) { return T.max }
        return T(t)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The scalar arithmetic of kiss-fft (v1.3.0, the version TFLite Micro builds its `SignalRfft`
/// on) for one sample type. The fixed-point types work in Q15 (int16) or Q31 (int32): every
/// product is rounded once, `(p + 2^(bits-1)) >> bits`, sums wrap in the sample type as C's
/// stores into it do, and each butterfly divides its inputs by its radix to keep the result
/// in range. Float32 rounds as IEEE arithmetic does and divides nothing.
public protocol KissFFTScalar: Sendable {
    static var zero: Self { get }
    /// The twiddle factor for `cos` or `sin` of a phase, as kiss-fft's table stores it.
    static func kissTwiddle(_ value: Double) -> Self
    static func kissAdd(_ a: Self, _ b: Self) -> Self
    static func kissSubtract(_ a: Self, _ b: Self) -> Self
    static func kissNegate(_ a: Self) -> Self
    /// `S_MUL`: `a * b`, rounded.
    static func kissMultiply(_ a: Self, _ b: Self) -> Self
    /// `a * b - c * d` with one rounding (the real part of `C_MUL`).
    static func kissMultiplySubtract(_ a: Self, _ b: Self, _ c: Self, _ d: Self) -> Self
    /// `a * b + c * d` with one rounding (the imaginary part of `C_MUL`).
    static func kissMultiplyAdd(_ a: Self, _ b: Self, _ c: Self, _ d: Self) -> Self
    /// `C_FIXDIV`: `x / radix` as a product with `max / radix`, rounded; `x` for floats.
    static func kissDivide(_ x: Self, by radix: Int) -> Self
    /// `HALF_OF(x)`.
    static func kissHalf(_ x: Self) -> Self
    /// `HALF_OF(a + b)`, the sum formed in C's promoted type (so int16 sums do not wrap).
    static func kissHalfSum(_ a: Self, _ b: Self) -> Self
    /// `HALF_OF(a - b)`, like ``kissHalfSum(_:_:)``.
    static func kissHalfDifference(_ a: Self, _ b: Self) -> Self
}

extension Int16: KissFFTScalar {
    @inline(__always) static func round(_ product: Int32) -> Int16 {
        Int16(truncatingIfNeeded: (product &+ (1 << 14)) >> 15)
    }

    public static func kissTwiddle(_ value: Double) -> Int16 { Int16(floor(0.5 + 32767 * value)) }
    @inline(__always) public static func kissAdd(_ a: Int16, _ b: Int16) -> Int16 { a &+ b }
    @inline(__always) public static func kissSubtract(_ a: Int16, _ b: Int16) -> Int16 { a &- b }
    @inline(__always) public static func kissNegate(_ a: Int16) -> Int16 { 0 &- a }
    @inline(__always) public static func kissMultiply(_ a: Int16, _ b: Int16) -> Int16 { round(Int32(a) * Int32(b)) }
    @inline(__always) public static func kissMultiplySubtract(_ a: Int16, _ b: Int16, _ c: Int16, _ d: Int16) -> Int16 {
        round((Int32(a) * Int32(b)) &- (Int32(c) * Int32(d)))
    }
    @inline(__always) public static func kissMultiplyAdd(_ a: Int16, _ b: Int16, _ c: Int16, _ d: Int16) -> Int16 {
        round((Int32(a) * Int32(b)) &+ (Int32(c) * Int32(d)))
    }
    @inline(__always) public static func kissDivide(_ x: Int16, by radix: Int) -> Int16 {
        round(Int32(x) * Int32(32767 / radix))
    }
    @inline(__always) public static func kissHalf(_ x: Int16) -> Int16 { x >> 1 }
    @inline(__always) public static func kissHalfSum(_ a: Int16, _ b: Int16) -> Int16 {
        Int16(truncatingIfNeeded: (Int32(a) + Int32(b)) >> 1)
    }
    @inline(__always) public static func kissHalfDifference(_ a: Int16, _ b: Int16) -> Int16 {
        Int16(truncatingIfNeeded: (Int32(a) - Int32(b)) >> 1)
    }
}

extension Int32: KissFFTScalar {
    @inline(__always) static func round(_ product: Int64) -> Int32 {
        Int32(truncatingIfNeeded: (product &+ (1 << 30)) >> 31)
    }

    public static func kissTwiddle(_ value: Double) -> Int32 { Int32(floor(0.5 + 2147483647 * value)) }
    @inline(__always) public static func kissAdd(_ a: Int32, _ b: Int32) -> Int32 { a &+ b }
    @inline(__always) public static func kissSubtract(_ a: Int32, _ b: Int32) -> Int32 { a &- b }
    @inline(__always) public static func kissNegate(_ a: Int32) -> Int32 { 0 &- a }
    @inline(__always) public static func kissMultiply(_ a: Int32, _ b: Int32) -> Int32 { round(Int64(a) * Int64(b)) }
    @inline(__always) public static func kissMultiplySubtract(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) -> Int32 {
        round((Int64(a) * Int64(b)) &- (Int64(c) * Int64(d)))
    }
    @inline(__always) public static func kissMultiplyAdd(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32) -> Int32 {
        round((Int64(a) * Int64(b)) &+ (Int64(c) * Int64(d)))
    }
    @inline(__always) public static func kissDivide(_ x: Int32, by radix: Int) -> Int32 {
        round(Int64(x) * Int64(2147483647 / radix))
    }
    // C adds two int32 samples in `int`, which is 32 bits wide: the sum wraps before halving.
    @inline(__always) public static func kissHalf(_ x: Int32) -> Int32 { x >> 1 }
    @inline(__always) public static func kissHalfSum(_ a: Int32, _ b: Int32) -> Int32 { (a &+ b) >> 1 }
    @inline(__always) public static func kissHalfDifference(_ a: Int32, _ b: Int32) -> Int32 { (a &- b) >> 1 }
}

extension Float: KissFFTScalar {
    public static func kissTwiddle(_ value: Double) -> Float { Float(value) }
    @inline(__always) public static func kissAdd(_ a: Float, _ b: Float) -> Float { a + b }
    @inline(__always) public static func kissSubtract(_ a: Float, _ b: Float) -> Float { a - b }
    @inline(__always) public static func kissNegate(_ a: Float) -> Float { -a }
    @inline(__always) public static func kissMultiply(_ a: Float, _ b: Float) -> Float { a * b }
    @inline(__always) public static func kissMultiplySubtract(_ a: Float, _ b: Float, _ c: Float, _ d: Float) -> Float {
        a * b - c * d
    }
    @inline(__always) public static func kissMultiplyAdd(_ a: Float, _ b: Float, _ c: Float, _ d: Float) -> Float {
        a * b + c * d
    }
    @inline(__always) public static func kissDivide(_ x: Float, by radix: Int) -> Float { x }
    @inline(__always) public static func kissHalf(_ x: Float) -> Float { x * 0.5 }
    @inline(__always) public static func kissHalfSum(_ a: Float, _ b: Float) -> Float { (a + b) * 0.5 }
    @inline(__always) public static func kissHalfDifference(_ a: Float, _ b: Float) -> Float { (a - b) * 0.5 }
}

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

/// kiss-fft's `FIXED_POINT` arithmetic, the same for its Q15 (int16) and Q31 (int32) builds: a
/// product of two samples is formed in `KissProduct`, twice as wide, and rounded back once.
public protocol KissFixedPointScalar: KissFFTScalar, FixedWidthInteger, SignedInteger {
    associatedtype KissProduct: FixedWidthInteger & SignedInteger
}

extension KissFixedPointScalar {
    /// `sround`: a product with `bitWidth - 1` fraction bits, rounded to a sample.
    @inline(__always) static func round(_ product: KissProduct) -> Self {
        Self(truncatingIfNeeded: (product &+ (1 << (bitWidth - 2))) >> (bitWidth - 1))
    }

    public static func kissTwiddle(_ value: Double) -> Self { Self(floor(0.5 + Double(Self.max) * value)) }
    @inline(__always) public static func kissAdd(_ a: Self, _ b: Self) -> Self { a &+ b }
    @inline(__always) public static func kissSubtract(_ a: Self, _ b: Self) -> Self { a &- b }
    @inline(__always) public static func kissNegate(_ a: Self) -> Self { 0 &- a }
    @inline(__always) public static func kissMultiply(_ a: Self, _ b: Self) -> Self { round(KissProduct(a) * KissProduct(b)) }
    @inline(__always) public static func kissMultiplySubtract(_ a: Self, _ b: Self, _ c: Self, _ d: Self) -> Self {
        round((KissProduct(a) * KissProduct(b)) &- (KissProduct(c) * KissProduct(d)))
    }
    @inline(__always) public static func kissMultiplyAdd(_ a: Self, _ b: Self, _ c: Self, _ d: Self) -> Self {
        round((KissProduct(a) * KissProduct(b)) &+ (KissProduct(c) * KissProduct(d)))
    }
    @inline(__always) public static func kissDivide(_ x: Self, by radix: Int) -> Self {
        round(KissProduct(x) * KissProduct(Int(Self.max) / radix))
    }
    @inline(__always) public static func kissHalf(_ x: Self) -> Self { x >> 1 }
}

extension Int16: KissFixedPointScalar {
    public typealias KissProduct = Int32

    @inline(__always) public static func kissHalfSum(_ a: Int16, _ b: Int16) -> Int16 {
        Int16(truncatingIfNeeded: (Int32(a) + Int32(b)) >> 1)
    }
    @inline(__always) public static func kissHalfDifference(_ a: Int16, _ b: Int16) -> Int16 {
        Int16(truncatingIfNeeded: (Int32(a) - Int32(b)) >> 1)
    }
}

extension Int32: KissFixedPointScalar {
    public typealias KissProduct = Int64

    // C adds two int32 samples in `int`, which is 32 bits wide: the sum wraps before halving.
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

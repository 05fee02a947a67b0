/// Element types of the StableHLO kernels, with the arithmetic LiteRT's C++ templates give
/// them: integers wrap, floats round once, `maximum`/`minimum` are `std::max`/`std::min`
/// (`a < b ? b : a` and `b < a ? b : a`, so a NaN on the left is kept and one on the right
/// dropped, unlike TFLite's MAXIMUM).
public protocol HLOArithmetic: BitwiseCopyable {
    static func hloAdd(_ a: Self, _ b: Self) -> Self
    static func hloMultiply(_ a: Self, _ b: Self) -> Self
    static func hloMaximum(_ a: Self, _ b: Self) -> Self
    static func hloMinimum(_ a: Self, _ b: Self) -> Self
}

/// Element types STABLEHLO_AND accepts: integers (bitwise) and bool (logical).
public protocol HLOBitwise: HLOArithmetic {
    static func hloAnd(_ a: Self, _ b: Self) -> Self
}

extension HLOArithmetic where Self: FixedWidthInteger {
    @inlinable public static func hloAdd(_ a: Self, _ b: Self) -> Self { a &+ b }
    @inlinable public static func hloMultiply(_ a: Self, _ b: Self) -> Self { a &* b }
    @inlinable public static func hloMaximum(_ a: Self, _ b: Self) -> Self { a < b ? b : a }
    @inlinable public static func hloMinimum(_ a: Self, _ b: Self) -> Self { b < a ? b : a }
}

extension HLOBitwise where Self: FixedWidthInteger {
    @inlinable public static func hloAnd(_ a: Self, _ b: Self) -> Self { a & b }
}

extension HLOArithmetic where Self: BinaryFloatingPoint {
    @inlinable public static func hloAdd(_ a: Self, _ b: Self) -> Self { a + b }
    @inlinable public static func hloMultiply(_ a: Self, _ b: Self) -> Self { a * b }
    @inlinable public static func hloMaximum(_ a: Self, _ b: Self) -> Self { a < b ? b : a }
    @inlinable public static func hloMinimum(_ a: Self, _ b: Self) -> Self { b < a ? b : a }
}

extension Int8: HLOBitwise {}
extension Int16: HLOBitwise {}
extension Int32: HLOBitwise {}
extension Int64: HLOBitwise {}
extension UInt8: HLOBitwise {}
extension UInt16: HLOBitwise {}
extension UInt32: HLOBitwise {}
extension UInt64: HLOBitwise {}
extension Float: HLOArithmetic {}
extension Double: HLOArithmetic {}

/// A float16 element by its bits. Arithmetic goes through float32 and rounds back to the
/// nearest half, as Eigen's `half` does; comparisons return an operand's bits unchanged.
@frozen
public struct HalfBits: HLOArithmetic, Equatable {
    public var bits: UInt16

    @inlinable public init(bits: UInt16) { self.bits = bits }

    @inlinable var float: Float { HalfPrecision.float(fromBits: bits) }

    @inlinable public static func hloAdd(_ a: Self, _ b: Self) -> Self { Self(bits: HalfPrecision.bits(from: a.float + b.float)) }
    @inlinable public static func hloMultiply(_ a: Self, _ b: Self) -> Self { Self(bits: HalfPrecision.bits(from: a.float * b.float)) }
    @inlinable public static func hloMaximum(_ a: Self, _ b: Self) -> Self { a.float < b.float ? b : a }
    @inlinable public static func hloMinimum(_ a: Self, _ b: Self) -> Self { b.float < a.float ? b : a }
}

/// A bool element by its byte. C++ adds bools as integers and converts the sum back, so ADD
/// is a logical or and MULTIPLY a logical and; any non-zero byte counts as true and results
/// are 0 or 1.
@frozen
public struct BoolByte: HLOBitwise, Equatable {
    public var byte: UInt8

    @inlinable public init(byte: UInt8) { self.byte = byte }
    @inlinable init(_ value: Bool) { byte = value ? 1 : 0 }

    @inlinable public static func hloAdd(_ a: Self, _ b: Self) -> Self { Self(a.byte != 0 || b.byte != 0) }
    @inlinable public static func hloMultiply(_ a: Self, _ b: Self) -> Self { Self(a.byte != 0 && b.byte != 0) }
    @inlinable public static func hloMaximum(_ a: Self, _ b: Self) -> Self { Self(a.byte != 0 || b.byte != 0) }
    @inlinable public static func hloMinimum(_ a: Self, _ b: Self) -> Self { Self(a.byte != 0 && b.byte != 0) }
    @inlinable public static func hloAnd(_ a: Self, _ b: Self) -> Self { Self(a.byte != 0 && b.byte != 0) }
}

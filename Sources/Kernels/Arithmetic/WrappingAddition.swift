/// Element types whose sums the accumulating kernels (ADD_N, CUMSUM, SCATTER_ND, segment sums)
/// form as TFLite does: floats round, integers wrap on overflow instead of trapping.
public protocol WrappingAddable {
    /// The zero of the type.
    static var additiveZero: Self { get }
    /// `self + other`, wrapping for integers.
    func addingWrapped(_ other: Self) -> Self
}

extension Float: WrappingAddable {
    /// 0.
    public static var additiveZero: Float { 0 }
    /// `self + other`.
    @inlinable public func addingWrapped(_ other: Float) -> Float { self + other }
}

extension Int8: WrappingAddable {
    /// 0.
    public static var additiveZero: Int8 { 0 }
    /// `self &+ other`.
    @inlinable public func addingWrapped(_ other: Int8) -> Int8 { self &+ other }
}

extension UInt8: WrappingAddable {
    /// 0.
    public static var additiveZero: UInt8 { 0 }
    /// `self &+ other`.
    @inlinable public func addingWrapped(_ other: UInt8) -> UInt8 { self &+ other }
}

extension Int16: WrappingAddable {
    /// 0.
    public static var additiveZero: Int16 { 0 }
    /// `self &+ other`.
    @inlinable public func addingWrapped(_ other: Int16) -> Int16 { self &+ other }
}

extension Int32: WrappingAddable {
    /// 0.
    public static var additiveZero: Int32 { 0 }
    /// `self &+ other`.
    @inlinable public func addingWrapped(_ other: Int32) -> Int32 { self &+ other }
}

extension Int64: WrappingAddable {
    /// 0.
    public static var additiveZero: Int64 { 0 }
    /// `self &+ other`.
    @inlinable public func addingWrapped(_ other: Int64) -> Int64 { self &+ other }
}

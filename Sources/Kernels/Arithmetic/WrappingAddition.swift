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

extension WrappingAddable where Self: FixedWidthInteger {
    /// 0.
    @inlinable public static var additiveZero: Self { 0 }
    /// `self &+ other`.
    @inlinable public func addingWrapped(_ other: Self) -> Self { self &+ other }
}

extension Int8: WrappingAddable {}
extension UInt8: WrappingAddable {}
extension Int16: WrappingAddable {}
extension Int32: WrappingAddable {}
extension Int64: WrappingAddable {}

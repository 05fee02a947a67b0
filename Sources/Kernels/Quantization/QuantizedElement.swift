/// The integer types a quantised tensor stores: int8, uint8 and int16 (and int32 where an op requantises accumulators).
///
/// Kernels are written once over this protocol and specialised for each type.
public protocol QuantizedElement: FixedWidthInteger & Sendable {
    /// The smallest stored value, widened.
    static var quantizedMin: Int32 { get }
    /// The largest stored value, widened.
    static var quantizedMax: Int32 { get }
}

extension QuantizedElement {
    /// `Self.min` widened to int32.
    @inlinable public static var quantizedMin: Int32 { Int32(Self.min) }
    /// `Self.max` widened to int32.
    @inlinable public static var quantizedMax: Int32 { Int32(Self.max) }

    /// Narrows an int32 value that a kernel has already clamped to this type's range.
    @inlinable
    public init(clampedQuantized value: Int32) {
        self.init(truncatingIfNeeded: value)
    }

    /// Clamps an int32 value into this type's range, then narrows it.
    @inlinable
    public init(saturatingQuantized value: Int32) {
        self.init(truncatingIfNeeded: Swift.min(Swift.max(value, Self.quantizedMin), Self.quantizedMax))
    }
}

extension Int8: QuantizedElement {}
extension UInt8: QuantizedElement {}
extension Int16: QuantizedElement {}
/// Requantised int32 accumulators (QUANTIZE int16 <-> int32); the int32 range is its own clamp.
extension Int32: QuantizedElement {}

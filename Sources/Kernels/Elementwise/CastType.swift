/// The element types CAST converts between.
public enum CastType: Sendable, Equatable, CaseIterable {
    /// IEEE binary32.
    case float32
    /// IEEE binary16.
    case float16
    /// bfloat16, the top half of a binary32.
    case bFloat16
    /// IEEE binary64.
    case float64
    /// Signed 8-bit.
    case int8
    /// Unsigned 8-bit.
    case uInt8
    /// Signed 16-bit.
    case int16
    /// Unsigned 16-bit.
    case uInt16
    /// Signed 32-bit.
    case int32
    /// Unsigned 32-bit.
    case uInt32
    /// Signed 64-bit.
    case int64
    /// Unsigned 64-bit.
    case uInt64
    /// One byte, 0 or 1 (any non-zero byte reads as true).
    case bool

    /// Bytes per element.
    public var byteSize: Int {
        switch self {
        case .int8, .uInt8, .bool: return 1
        case .float16, .bFloat16, .int16, .uInt16: return 2
        case .float32, .int32, .uInt32: return 4
        case .float64, .int64, .uInt64: return 8
        }
    }

    var isFloatingPoint: Bool { self == .float32 || self == .float16 || self == .bFloat16 || self == .float64 }
}

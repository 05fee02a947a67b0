import TFLiteRuntime

/// The element types a ``ModelInterpreter`` input or output can be declared with (ML Kit's
/// `ModelElementType`).
public enum ModelElementType: String, Sendable, Equatable, CaseIterable {
    case uInt8, int8, int32, int64, float32

    /// The runtime data type.
    public var dataType: DataType {
        switch self {
        case .uInt8: return .uInt8
        case .int8: return .int8
        case .int32: return .int32
        case .int64: return .int64
        case .float32: return .float32
        }
    }

    /// Bytes per element.
    public var byteSize: Int { dataType.byteSize ?? 1 }
}

internal import TFLiteTasks

/// The element type of a custom model's input or output (ML Kit's `ModelElementType`, with
/// its raw values).
public enum ModelElementType: UInt, Sendable {
    /// Not a type: declaring a format with it is an error.
    case unknown = 0
    /// 32-bit float.
    case float32 = 1
    /// 32-bit signed integer.
    case int32 = 2
    /// 8-bit unsigned integer.
    case uInt8 = 3
    /// 64-bit signed integer.
    case int64 = 4

    /// The runtime's element type, or nil for `.unknown`.
    var taskType: TFLiteTasks.ModelElementType? {
        switch self {
        case .unknown: return nil
        case .float32: return .float32
        case .int32: return .int32
        case .uInt8: return .uInt8
        case .int64: return .int64
        }
    }
}

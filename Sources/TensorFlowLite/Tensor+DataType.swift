internal import TFLiteRuntime

extension Tensor {
    /// The element types a tensor can have. The first nine are TensorFlowLiteSwift's; the rest
    /// are the further types this runtime runs, named the same way (`kTfLiteUInt16` is
    /// `uInt16`). Switches over it need a `default` to stay source compatible with both.
    public enum DataType: Equatable, Hashable, Sendable {
        /// A boolean, one byte.
        case bool
        /// An 8-bit unsigned integer.
        case uInt8
        /// An 8-bit signed integer.
        case int8
        /// A 16-bit signed integer.
        case int16
        /// A 32-bit signed integer.
        case int32
        /// A 64-bit signed integer.
        case int64
        /// A 16-bit half-precision floating point number.
        case float16
        /// A 32-bit single-precision floating point number.
        case float32
        /// A 64-bit double-precision floating point number.
        case float64
        /// A 16-bit unsigned integer.
        case uInt16
        /// A 32-bit unsigned integer.
        case uInt32
        /// A 64-bit unsigned integer.
        case uInt64
        /// A 16-bit brain floating point number (8 exponent bits).
        case bFloat16
        /// A complex number of two 32-bit floats.
        case complex64
        /// A complex number of two 64-bit floats.
        case complex128
        /// Variable-length strings, in TensorFlow Lite's string-tensor layout.
        case string

        /// nil for the types that cannot be an input or output here: resource and variant
        /// handles, and the packed sub-byte and 8-bit float types no kernel reads.
        init?(_ type: TFLiteRuntime.DataType) {
            switch type {
            case .bool: self = .bool
            case .uInt8: self = .uInt8
            case .int8: self = .int8
            case .int16: self = .int16
            case .int32: self = .int32
            case .int64: self = .int64
            case .float16: self = .float16
            case .float32: self = .float32
            case .float64: self = .float64
            case .uInt16: self = .uInt16
            case .uInt32: self = .uInt32
            case .uInt64: self = .uInt64
            case .bFloat16: self = .bFloat16
            case .complex64: self = .complex64
            case .complex128: self = .complex128
            case .string: self = .string
            case .resource, .variant, .int4, .uInt4, .int2, .float8e4m3fn, .float8e5m2: return nil
            }
        }
    }
}

/// The element type of a tensor. Covers every type TFLite models use, int8 included.
public enum DataType: Sendable, Hashable, CaseIterable {
    case float32, float16, float64, bFloat16
    case int8, uInt8, int16, uInt16, int32, uInt32, int64, uInt64
    case bool, string, complex64, complex128, resource, variant
    /// Packed sub-byte integers and 8-bit floats: loadable, but no kernel reads them.
    case int4, uInt4, int2, float8e4m3fn, float8e5m2

    /// Bytes per element; nil for types without a fixed element size (string, resource,
    /// variant, packed int4).
    public var byteSize: Int? {
        switch self {
        case .int8, .uInt8, .bool, .float8e4m3fn, .float8e5m2: return 1
        case .float16, .bFloat16, .int16, .uInt16: return 2
        case .float32, .int32, .uInt32: return 4
        case .float64, .int64, .uInt64, .complex64: return 8
        case .complex128: return 16
        case .string, .resource, .variant, .int4, .uInt4, .int2: return nil
        }
    }

    /// The TFLite schema name (`FLOAT32`, `INT8`, ...).
    public var name: String {
        switch self {
        case .float32: return "FLOAT32"
        case .float16: return "FLOAT16"
        case .float64: return "FLOAT64"
        case .bFloat16: return "BFLOAT16"
        case .int8: return "INT8"
        case .uInt8: return "UINT8"
        case .int16: return "INT16"
        case .uInt16: return "UINT16"
        case .int32: return "INT32"
        case .uInt32: return "UINT32"
        case .int64: return "INT64"
        case .uInt64: return "UINT64"
        case .bool: return "BOOL"
        case .string: return "STRING"
        case .complex64: return "COMPLEX64"
        case .complex128: return "COMPLEX128"
        case .resource: return "RESOURCE"
        case .variant: return "VARIANT"
        case .int4: return "INT4"
        case .uInt4: return "UINT4"
        case .int2: return "INT2"
        case .float8e4m3fn: return "FLOAT8E4M3FN"
        case .float8e5m2: return "FLOAT8E5M2"
        }
    }

    init(_ type: Schema.TensorType) {
        switch type {
        case .float32: self = .float32
        case .float16: self = .float16
        case .float64: self = .float64
        case .bfloat16: self = .bFloat16
        case .int8: self = .int8
        case .uint8: self = .uInt8
        case .int16: self = .int16
        case .uint16: self = .uInt16
        case .int32: self = .int32
        case .uint32: self = .uInt32
        case .int64: self = .int64
        case .uint64: self = .uInt64
        case .bool: self = .bool
        case .string: self = .string
        case .complex64: self = .complex64
        case .complex128: self = .complex128
        case .resource: self = .resource
        case .variant: self = .variant
        case .int4: self = .int4
        case .uint4: self = .uInt4
        case .int2: self = .int2
        case .float8E4m3fn: self = .float8e4m3fn
        case .float8E5m2: self = .float8e5m2
        }
    }
}

extension DataType: CustomStringConvertible {
    public var description: String { name }
}

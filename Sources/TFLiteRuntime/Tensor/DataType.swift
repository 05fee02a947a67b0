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
    public var name: String { schemaType.name }

    /// Every type in the order of the schema's `TensorType` codes, so that one list maps
    /// between the two.
    private static let bySchemaCode: [DataType] = [
        .float32, .float16, .int32, .uInt8, .int64, .string, .bool, .int16, .complex64, .int8, .float64, .complex128,
        .uInt64, .resource, .variant, .uInt32, .uInt16, .int4, .bFloat16, .int2, .uInt4, .float8e4m3fn, .float8e5m2,
    ]

    /// The schema's code for this type.
    var schemaType: Schema.TensorType {
        Schema.TensorType(rawValue: Int8(Self.bySchemaCode.firstIndex(of: self)!))!
    }

    init(_ type: Schema.TensorType) {
        self = Self.bySchemaCode[Int(type.rawValue)]
    }
}

extension DataType: CustomStringConvertible {
    public var description: String { name }
}

extension Schema.TensorType {
    /// Bytes per element, or nil for types without a fixed byte size per element: strings,
    /// resources and variants (opaque handles) and sub-byte integers (packed).
    public var byteSize: Int? {
        switch self {
        case .bool, .int8, .uint8, .float8E4m3fn, .float8E5m2: 1
        case .float16, .bfloat16, .int16, .uint16: 2
        case .float32, .int32, .uint32: 4
        case .float64, .int64, .uint64, .complex64: 8
        case .complex128: 16
        case .string, .resource, .variant, .int4, .int2, .uint4: nil
        }
    }
}

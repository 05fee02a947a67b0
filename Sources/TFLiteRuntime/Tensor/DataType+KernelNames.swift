import Kernels

/// What CAST's kernel and NumPy call the numeric and boolean types: one row a type, so that
/// the two mappings cannot disagree about a type both know.
extension DataType {
    private static let foreignNames: [DataType: (cast: CastType?, npy: NPYArray.DType?)] = [
        .float32: (.float32, .float32), .float16: (.float16, .float16), .bFloat16: (.bFloat16, nil), .float64: (.float64, .float64),
        .int8: (.int8, .int8), .uInt8: (.uInt8, .uInt8), .int16: (.int16, .int16), .uInt16: (.uInt16, .uInt16),
        .int32: (.int32, .int32), .uInt32: (.uInt32, .uInt32), .int64: (.int64, .int64), .uInt64: (.uInt64, .uInt64),
        .bool: (.bool, .bool), .complex64: (nil, .complex64), .string: (nil, .bytes),
    ]

    /// The CAST kernel's name for this type, or nil when CAST cannot convert it.
    var castType: CastType? { Self.foreignNames[self]?.cast }

    /// The NumPy dtype used for this type in `.npy` files, if there is one.
    public var npyDType: NPYArray.DType? { Self.foreignNames[self]?.npy }
}

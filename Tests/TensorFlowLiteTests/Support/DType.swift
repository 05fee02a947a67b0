import TensorFlowLite

/// The data type a corpus manifest's NumPy dtype name stands for.
func dataType(ofNumPy dtype: String) -> Tensor.DataType? {
    switch dtype {
    case "bool": return .bool
    case "uint8": return .uInt8
    case "int8": return .int8
    case "int16": return .int16
    case "int32": return .int32
    case "int64": return .int64
    case "float16": return .float16
    case "float32": return .float32
    case "float64": return .float64
    default: return nil
    }
}

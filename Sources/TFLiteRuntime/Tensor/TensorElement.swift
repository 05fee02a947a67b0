/// Swift types that map one-to-one onto a tensor element type, for the typed `copy` and
/// read conveniences.
public protocol TensorElement: BitwiseCopyable {
    static var dataType: DataType { get }
}

extension Float: TensorElement { public static var dataType: DataType { .float32 } }
extension Double: TensorElement { public static var dataType: DataType { .float64 } }
extension Int8: TensorElement { public static var dataType: DataType { .int8 } }
extension UInt8: TensorElement { public static var dataType: DataType { .uInt8 } }
extension Int16: TensorElement { public static var dataType: DataType { .int16 } }
extension UInt16: TensorElement { public static var dataType: DataType { .uInt16 } }
extension Int32: TensorElement { public static var dataType: DataType { .int32 } }
extension UInt32: TensorElement { public static var dataType: DataType { .uInt32 } }
extension Int64: TensorElement { public static var dataType: DataType { .int64 } }
extension UInt64: TensorElement { public static var dataType: DataType { .uInt64 } }
extension Bool: TensorElement { public static var dataType: DataType { .bool } }

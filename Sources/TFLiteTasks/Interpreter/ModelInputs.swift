import Foundation
import TFLiteRuntime

/// The inputs of one ``ModelInterpreter`` run, in model input order.
public struct ModelInputs: Sendable {
    enum Value: Sendable {
        case bytes([UInt8])
        case typed([UInt8], DataType)
        case nested(NestedArray)

        func bytes(as type: ModelElementType, index: Int) throws(TaskError) -> [UInt8] {
            switch self {
            case .bytes(let b): return b
            case .typed(let b, let t):
                guard t == type.dataType else {
                    throw .invalidFormat("input \(index): \(t) values given for a \(type.dataType) input")
                }
                return b
            case .nested(let n): return try n.bytes(as: type, index: index)
            }
        }
    }

    var values: [Value] = []

    /// No inputs yet.
    public init() {}

    /// Adds an input as raw little-endian bytes.
    public mutating func addInput(bytes: [UInt8]) {
        values.append(.bytes(bytes))
    }

    /// Adds an input as a flat typed array (`Float`, `UInt8`, `Int8`, `Int32`, `Int64`).
    public mutating func addInput<T: TensorElement>(_ values: [T]) {
        let bytes = values.withUnsafeBytes { Array($0) }
        self.values.append(.typed(bytes, T.dataType))
    }

    /// Adds an input as nested Swift arrays of numbers, e.g. `[[[Float]]]`; the values are
    /// converted to the declared type (out-of-range integers are an error at run time).
    public mutating func addInput(nested: Any) {
        values.append(.nested(NestedArray(nested)))
    }
}

/// A nested array flattened at the moment it is added.
struct NestedArray: @unchecked Sendable {
    let leaves: [Any]

    init(_ value: Any) {
        var out: [Any] = []
        func walk(_ v: Any) {
            if let a = v as? [Any] { a.forEach(walk) } else { out.append(v) }
        }
        walk(value)
        leaves = out
    }

    func bytes(as type: ModelElementType, index: Int) throws(TaskError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(leaves.count * type.byteSize)
        for (k, leaf) in leaves.enumerated() {
            let d: Double
            switch leaf {
            case let v as Double: d = v
            case let v as Float: d = Double(v)
            case let v as Int: d = Double(v)
            case let v as Int8: d = Double(v)
            case let v as UInt8: d = Double(v)
            case let v as Int32: d = Double(v)
            case let v as Int64: d = Double(v)
            default: throw .invalidFormat("input \(index): element \(k) (\(Swift.type(of: leaf))) is not a number")
            }
            func integer<T: FixedWidthInteger>(_: T.Type) throws(TaskError) -> [UInt8] {
                guard d.rounded() == d, let v = T(exactly: d) else {
                    throw .invalidFormat("input \(index): element \(k) = \(d) does not fit \(type)")
                }
                return withUnsafeBytes(of: v.littleEndian) { Array($0) }
            }
            switch type {
            case .float32: out += withUnsafeBytes(of: Float(d).bitPattern.littleEndian) { Array($0) }
            case .uInt8: out += try integer(UInt8.self)
            case .int8: out += try integer(Int8.self)
            case .int32: out += try integer(Int32.self)
            case .int64: out += try integer(Int64.self)
            }
        }
        return out
    }
}

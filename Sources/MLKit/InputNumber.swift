import Foundation

/// One number of an array input: a whole number kept exact (an int64 input may need all 64
/// bits, which a Double does not hold), anything else as a Double.
enum InputNumber: CustomStringConvertible {
    case integer(Int64)
    case unsigned(UInt64)
    case real(Double)

    /// The number `value` holds: an `NSNumber` or a Swift integer or floating-point value;
    /// nil for anything else.
    init?(_ value: Any) {
        switch value {
        case let v as Int: self = .integer(Int64(v))
        case let v as Int8: self = .integer(Int64(v))
        case let v as Int16: self = .integer(Int64(v))
        case let v as Int32: self = .integer(Int64(v))
        case let v as Int64: self = .integer(v)
        case let v as UInt: self = .unsigned(UInt64(v))
        case let v as UInt8: self = .integer(Int64(v))
        case let v as UInt16: self = .integer(Int64(v))
        case let v as UInt32: self = .integer(Int64(v))
        case let v as UInt64: self = .unsigned(v)
        case let v as Float: self = .real(Double(v))
        case let v as Double: self = .real(v)
        case let v as NSNumber: self = Self(v)
        default: return nil
        }
    }

    /// An NSNumber's value: exact when it is a whole number, as ML Kit's callers store
    /// pixels and token ids in NSNumbers.
    private init(_ n: NSNumber) {
        let d = n.doubleValue
        if d.rounded() == d, d >= -0x1p63, d < 0x1p63 {
            self = .integer(n.int64Value)
        } else if d.rounded() == d, d >= 0, d < 0x1p64 {
            self = .unsigned(n.uint64Value)
        } else {
            self = .real(d)
        }
    }

    var double: Double {
        switch self {
        case .integer(let v): return Double(v)
        case .unsigned(let v): return Double(v)
        case .real(let v): return v
        }
    }

    /// The number as a `T`, or nil when it is not whole or out of `T`'s range.
    func exactly<T: FixedWidthInteger>(_: T.Type) -> T? {
        switch self {
        case .integer(let v): return T(exactly: v)
        case .unsigned(let v): return T(exactly: v)
        case .real(let v): return T(exactly: v)
        }
    }

    var description: String {
        switch self {
        case .integer(let v): return String(v)
        case .unsigned(let v): return String(v)
        case .real(let v): return String(v)
        }
    }
}

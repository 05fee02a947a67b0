extension FlexBuffer {
    /// One value of a FlexBuffer: a scalar, string, key, blob, vector or map.
    public struct Reference: Sendable {
        let storage: [UInt8]
        /// Where the value (or the offset to it) is stored.
        let offset: Int
        /// The width of the slot at `offset`.
        let parentWidth: Int
        /// The width of the pointed-to data's elements or length prefix.
        let byteWidth: Int
        /// The value's type.
        public let type: ValueType

        init(storage: [UInt8], offset: Int, parentWidth: Int, byteWidth: Int, type: ValueType) {
            self.storage = storage
            self.offset = offset
            self.parentWidth = parentWidth
            self.byteWidth = byteWidth
            self.type = type
        }

        /// Decodes a packed type byte: the type in the upper six bits, log2 of the width in
        /// the lower two.
        init(storage: [UInt8], offset: Int, parentWidth: Int, packedType: UInt8, at position: Int) throws(FlatBufferError) {
            guard let type = ValueType(rawValue: packedType >> 2) else {
                throw FlatBufferError(.invalidValue, at: position, "FlexBuffer: unknown value type \(packedType >> 2)")
            }
            self.init(storage: storage, offset: offset, parentWidth: parentWidth,
                      byteWidth: 1 << Int(packedType & 3), type: type)
        }

        /// Whether the value is null.
        public var isNull: Bool { type == .null }

        func mismatch(_ wanted: String) -> FlatBufferError {
            FlatBufferError(.typeMismatch, at: offset, "FlexBuffer: value of type \(type) read as \(wanted)")
        }

        /// The value as a signed integer: integers, unsigned integers that fit, and booleans.
        public var asInt: Int64 {
            get throws(FlatBufferError) { try integer(as: Int64.self, "an integer") }
        }

        /// The value as an unsigned integer: unsigned integers, non-negative integers, and
        /// booleans.
        public var asUInt: UInt64 {
            get throws(FlatBufferError) { try integer(as: UInt64.self, "an unsigned integer") }
        }

        /// An integer or boolean read in its own signedness, then converted to `T` when the
        /// value fits; `wanted` names `T` for a value of another type.
        private func integer<T: FixedWidthInteger>(as _: T.Type, _ wanted: String) throws(FlatBufferError) -> T {
            switch type {
            case .int, .indirectInt:
                let value = try scalar(FlexBuffer.readInt)
                if let result = T(exactly: value) { return result }
                throw FlatBufferError(.invalidValue, at: offset, "FlexBuffer: negative value \(value) read as unsigned")
            case .uint, .indirectUInt, .bool:
                let value = try scalar(FlexBuffer.readUInt)
                if let result = T(exactly: value) { return result }
                throw FlatBufferError(.invalidValue, at: offset, "FlexBuffer: unsigned value \(value) does not fit a signed integer")
            default: throw mismatch(wanted)
            }
        }

        /// A scalar read by `read` where it is stored: in the parent's slot, or for the indirect
        /// types where that slot points, in the value's own width.
        private func scalar<V>(_ read: ([UInt8], Int, Int) throws(FlatBufferError) -> V) throws(FlatBufferError) -> V {
            switch type {
            case .indirectInt, .indirectUInt, .indirectFloat: return try read(storage, try FlexBuffer.indirect(storage, offset, parentWidth), byteWidth)
            default: return try read(storage, offset, parentWidth)
            }
        }

        /// The value as a floating-point number: floats and (converted) integers.
        public var asDouble: Double {
            get throws(FlatBufferError) {
                switch type {
                case .float, .indirectFloat: return try scalar(FlexBuffer.readFloat)
                case .int, .indirectInt: return Double(try asInt)
                case .uint, .indirectUInt: return Double(try asUInt)
                default: throw mismatch("a number")
                }
            }
        }

        /// The value as a `Float` (see ``asDouble``).
        public var asFloat: Float {
            get throws(FlatBufferError) { Float(try asDouble) }
        }

        /// The value as a boolean: booleans, and integers (non-zero is true).
        public var asBool: Bool {
            get throws(FlatBufferError) {
                switch type {
                case .bool, .uint, .indirectUInt: return try asUInt != 0
                case .int, .indirectInt: return try asInt != 0
                default: throw mismatch("a boolean")
                }
            }
        }

        /// The value as text: strings and keys (UTF-8, invalid sequences replaced).
        public var asString: String {
            get throws(FlatBufferError) {
                switch type {
                case .string:
                    let range = try stringRange()
                    return String(decoding: storage[range], as: UTF8.self)
                case .key:
                    let start = try FlexBuffer.indirect(storage, offset, parentWidth)
                    guard let end = storage[start...].firstIndex(of: 0) else {
                        throw FlatBufferError(.unterminatedString, at: start, "FlexBuffer: key has no terminating zero byte")
                    }
                    return String(decoding: storage[start..<end], as: UTF8.self)
                default: throw mismatch("a string")
                }
            }
        }

        /// The bytes of a blob or string value.
        public var asBytes: [UInt8] {
            get throws(FlatBufferError) {
                guard type == .blob || type == .string else { throw mismatch("a blob") }
                return Array(storage[try stringRange()])
            }
        }

        /// The bounds of a string's or blob's bytes: a length prefix of `byteWidth` bytes
        /// before the data.
        func stringRange() throws(FlatBufferError) -> Range<Int> {
            let start = try FlexBuffer.indirect(storage, offset, parentWidth)
            let length = try FlexBuffer.readUInt(storage, start - byteWidth, byteWidth)
            guard length <= UInt64(storage.count - start) else {
                throw FlatBufferError(.lengthOverflow, at: start, "FlexBuffer: string of \(length) bytes runs past the end of the buffer")
            }
            return start..<(start + Int(length))
        }

        /// The value as a vector: vectors, typed vectors and maps (a map's values).
        public var vector: Vector {
            get throws(FlatBufferError) { try Vector(self) }
        }

        /// The value as a map.
        public var map: Map {
            get throws(FlatBufferError) {
                guard type == .map else { throw mismatch("a map") }
                return try Map(self)
            }
        }
    }
}

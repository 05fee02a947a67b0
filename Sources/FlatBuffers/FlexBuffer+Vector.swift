extension FlexBuffer {
    /// The elements of a FlexBuffer vector, typed vector or map (its values).
    public struct Vector: Sendable {
        let storage: [UInt8]
        let start: Int
        let width: Int
        /// The element type of a typed vector, or nil when each element carries its own
        /// packed type byte after the elements.
        let elementType: ValueType?
        /// The number of elements.
        public let count: Int

        init(_ reference: Reference) throws(FlatBufferError) {
            storage = reference.storage
            width = reference.byteWidth
            start = try FlexBuffer.indirect(storage, reference.offset, reference.parentWidth)
            var fixedCount: Int? = nil
            switch reference.type {
            case .vector, .map: elementType = nil
            case .vectorInt: elementType = .int
            case .vectorUInt: elementType = .uint
            case .vectorFloat: elementType = .float
            case .vectorKey: elementType = .key
            case .vectorStringDeprecated: elementType = .string
            case .vectorBool: elementType = .bool
            case .vectorInt2, .vectorInt3, .vectorInt4: elementType = .int
            case .vectorUInt2, .vectorUInt3, .vectorUInt4: elementType = .uint
            case .vectorFloat2, .vectorFloat3, .vectorFloat4: elementType = .float
            default: throw reference.mismatch("a vector")
            }
            switch reference.type {
            case .vectorInt2, .vectorUInt2, .vectorFloat2: fixedCount = 2
            case .vectorInt3, .vectorUInt3, .vectorFloat3: fixedCount = 3
            case .vectorInt4, .vectorUInt4, .vectorFloat4: fixedCount = 4
            default: break
            }
            let length: UInt64
            if let fixedCount {
                length = UInt64(fixedCount)
            } else {
                length = try FlexBuffer.readUInt(storage, start - width, width)
            }
            // Each element takes `width` bytes, plus one type byte in untyped vectors.
            let perElement = UInt64(width + (elementType == nil ? 1 : 0))
            guard length <= UInt64(storage.count), length * perElement <= UInt64(storage.count - start) else {
                throw FlatBufferError(.lengthOverflow, at: start, "FlexBuffer: vector of \(length) elements runs past the end of the buffer")
            }
            count = Int(length)
        }

        /// Element `index`; throws when the index is out of range or the element's type byte
        /// is unknown.
        public subscript(index: Int) -> Reference {
            get throws(FlatBufferError) {
                guard index >= 0, index < count else {
                    throw FlatBufferError(.outOfBounds, at: start, "FlexBuffer: index \(index) is outside a vector of \(count) elements")
                }
                let position = start + index * width
                if let elementType {
                    return Reference(storage: storage, offset: position, parentWidth: width, byteWidth: 1, type: elementType)
                }
                let typePosition = start + count * width + index
                return try Reference(storage: storage, offset: position, parentWidth: width,
                                     packedType: storage[typePosition], at: typePosition)
            }
        }
    }

    /// A FlexBuffer map: a vector of values and, before it, a typed vector of sorted keys.
    public struct Map: Sendable {
        /// The values, in key order.
        public let values: Vector
        let keys: Vector

        init(_ reference: Reference) throws(FlatBufferError) {
            values = try Vector(reference)
            let storage = reference.storage
            let width = values.width
            let keysSlot = values.start - 3 * width
            let keysWidth = try FlexBuffer.width(FlexBuffer.readUInt(storage, values.start - 2 * width, width), at: values.start - 2 * width)
            let keysReference = Reference(storage: storage, offset: keysSlot, parentWidth: width, byteWidth: keysWidth, type: .vectorKey)
            keys = try Vector(keysReference)
            guard keys.count == values.count else {
                throw FlatBufferError(.invalidValue, at: keysSlot, "FlexBuffer: map has \(keys.count) keys for \(values.count) values")
            }
        }

        /// The number of entries.
        public var count: Int { values.count }

        /// Every key, in stored order.
        public var keyStrings: [String] {
            get throws(FlatBufferError) {
                var out: [String] = []
                for i in 0..<keys.count { out.append(try keys[i].asString) }
                return out
            }
        }

        /// The value stored under `key`, or nil when the map has no such key.
        public subscript(key: String) -> Reference? {
            get throws(FlatBufferError) {
                // A linear scan: option maps are small, and it stays correct on maps whose
                // keys a hostile writer did not sort.
                for i in 0..<keys.count where try keys[i].asString == key {
                    return try values[i]
                }
                return nil
            }
        }
    }
}

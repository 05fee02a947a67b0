/// A reader for FlexBuffers, the schema-less format TFLite uses for custom operator options
/// (e.g. the map of `TFLite_Detection_PostProcess`). Every offset, width and length is
/// checked; reading a value as a type it does not hold throws.
public enum FlexBuffer {
    /// The type of a FlexBuffer value, as stored in its packed type byte.
    public enum ValueType: UInt8, Sendable, Equatable {
        case null = 0, int, uint, float, key, string, indirectInt, indirectUInt, indirectFloat
        case map, vector, vectorInt, vectorUInt, vectorFloat, vectorKey, vectorStringDeprecated
        case vectorInt2, vectorUInt2, vectorFloat2, vectorInt3, vectorUInt3, vectorFloat3
        case vectorInt4, vectorUInt4, vectorFloat4, blob, bool
        case vectorBool = 36
    }

    /// The root value of a FlexBuffer. Throws if the trailer (root width and type, the last
    /// two bytes) is malformed.
    public static func root(of bytes: [UInt8]) throws(FlatBufferError) -> Reference {
        guard bytes.count >= 3 else {
            throw FlatBufferError(.outOfBounds, at: 0, "FlexBuffer of \(bytes.count) bytes is too small (needs at least 3)")
        }
        let rootWidth = Int(bytes[bytes.count - 1])
        guard [1, 2, 4, 8].contains(rootWidth), rootWidth <= bytes.count - 2 else {
            throw FlatBufferError(.invalidValue, at: bytes.count - 1, "FlexBuffer root width \(rootWidth) is not 1, 2, 4 or 8 bytes within the buffer")
        }
        let packed = bytes[bytes.count - 2]
        return try Reference(storage: bytes, offset: bytes.count - 2 - rootWidth, parentWidth: rootWidth,
                             packedType: packed, at: bytes.count - 2)
    }

    /// The root value of a FlexBuffer held in memory owned elsewhere (copied, as option
    /// blobs are small).
    public static func root(of bytes: UnsafeRawBufferPointer) throws(FlatBufferError) -> Reference {
        try root(of: [UInt8](bytes))
    }
}

extension FlexBuffer {
    /// Reads an unsigned little-endian integer of `width` bytes after checking its range.
    static func readUInt(_ storage: [UInt8], _ offset: Int, _ width: Int) throws(FlatBufferError) -> UInt64 {
        guard offset >= 0, offset <= storage.count - width else {
            throw FlatBufferError(.outOfBounds, at: max(offset, 0),
                                  "FlexBuffer: \(width)-byte value at offset \(offset) lies outside the \(storage.count)-byte buffer")
        }
        var value: UInt64 = 0
        for i in stride(from: width - 1, through: 0, by: -1) {
            value = value << 8 | UInt64(storage[offset + i])
        }
        return value
    }

    /// Reads a signed little-endian integer of `width` bytes, sign-extending it.
    static func readInt(_ storage: [UInt8], _ offset: Int, _ width: Int) throws(FlatBufferError) -> Int64 {
        let raw = try readUInt(storage, offset, width)
        let shift = UInt64(64 - 8 * width)
        return Int64(bitPattern: raw << shift) >> shift
    }

    /// Reads a float of `width` 4 or 8 bytes.
    static func readFloat(_ storage: [UInt8], _ offset: Int, _ width: Int) throws(FlatBufferError) -> Double {
        let raw = try readUInt(storage, offset, width)
        switch width {
        case 4: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw)))
        case 8: return Double(bitPattern: raw)
        default:
            throw FlatBufferError(.invalidValue, at: offset, "FlexBuffer: a float cannot be \(width) bytes wide")
        }
    }

    /// Follows the backward offset of `width` bytes stored at `offset`.
    static func indirect(_ storage: [UInt8], _ offset: Int, _ width: Int) throws(FlatBufferError) -> Int {
        let distance = try readUInt(storage, offset, width)
        guard distance <= UInt64(offset) else {
            throw FlatBufferError(.outOfBounds, at: offset, "FlexBuffer: offset \(distance) at \(offset) points before the start of the buffer")
        }
        return offset - Int(distance)
    }

    /// Converts a stored width code or width byte into a byte count.
    static func width(_ value: UInt64, at offset: Int) throws(FlatBufferError) -> Int {
        guard value == 1 || value == 2 || value == 4 || value == 8 else {
            throw FlatBufferError(.invalidValue, at: offset, "FlexBuffer: width \(value) is not 1, 2, 4 or 8 bytes")
        }
        return Int(value)
    }
}

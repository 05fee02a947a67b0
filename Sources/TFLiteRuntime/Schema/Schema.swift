import FlatBuffers

/// The TFLite model schema as plain Swift values: one type per table, enum and union of
/// `schema.fbs` (generated into `Schema+Generated.swift`). A loaded ``Model`` decodes every
/// table once, eagerly; byte vectors stay in the model's memory as ``ByteRange``s.
public enum Schema {
    /// A `[ubyte]` vector left in place: its offset and length in the model's bytes. Read it
    /// with ``Model/bytes(_:)``.
    public struct ByteRange: Sendable, Hashable {
        /// Offset of the first byte from the start of the model.
        public let offset: Int
        /// Number of bytes.
        public let count: Int

        /// Creates a range of `count` bytes starting `offset` bytes into the model.
        public init(offset: Int, count: Int) {
            self.offset = offset
            self.count = count
        }
    }
}

/// A schema table that decodes itself eagerly from a bounds-checked FlatBuffer table.
protocol TableDecodable {
    init(table: Table) throws(FlatBufferError)
}

/// Converts a stored enum value, failing with the field's name when the schema has no such
/// value.
func decodeEnum<E: RawRepresentable>(_: E.Type, _ raw: E.RawValue, _ field: StaticString,
                                      at position: Int) throws(FlatBufferError) -> E {
    guard let value = E(rawValue: raw) else {
        throw FlatBufferError(.invalidValue, at: position, "\(field): value \(raw) is not a valid \(E.self)")
    }
    return value
}

/// Converts every element of a stored enum vector, failing as ``decodeEnum(_:_:_:at:)``.
func decodeEnums<E: RawRepresentable>(_: E.Type, _ raws: [E.RawValue], _ field: StaticString,
                                       at position: Int) throws(FlatBufferError) -> [E] {
    var out: [E] = []
    out.reserveCapacity(raws.count)
    for raw in raws { out.append(try decodeEnum(E.self, raw, field, at: position)) }
    return out
}

/// Decodes every table of a vector of tables.
func decodeTables<T: TableDecodable>(_: T.Type, _ tables: [Table]) throws(FlatBufferError) -> [T] {
    var out: [T] = []
    out.reserveCapacity(tables.count)
    for table in tables { out.append(try T(table: table)) }
    return out
}

/// Decodes a union field from its type tag and value table: nil for tag 0 (NONE) or when
/// the value is missing.
func decodeUnion<U>(tag: UInt8, table: Table?,
                    _ decode: (UInt8, Table) throws(FlatBufferError) -> U) throws(FlatBufferError) -> U? {
    guard tag != 0, let table else { return nil }
    return try decode(tag, table)
}

/// One table of a ``FlatBuffer`` with a validated vtable. Fields are addressed by their
/// schema field index (the n-th declared field, counting deprecated fields and counting a
/// union as two: its type tag, then its value).
public struct Table {
    /// The buffer this table belongs to.
    public let buffer: FlatBuffer
    /// The byte offset of the table's start (its vtable offset) in the buffer.
    public let position: Int
    @usableFromInline let vtable: Int
    @usableFromInline let vtableLength: Int
    @usableFromInline let objectLength: Int
    /// How many tables enclose this one (the root has depth 0).
    public let depth: Int

    /// The byte offset of field `index`'s inline data, or nil when the field is absent.
    /// Throws when the vtable places a `size`-byte field outside the table.
    @inlinable
    func fieldPosition(_ index: Int, size: Int, _ what: StaticString) throws(FlatBufferError) -> Int? {
        let slot = 4 + 2 * index
        guard slot + 2 <= vtableLength else { return nil }
        let relative = Int(buffer.loadUnchecked(UInt16.self, at: vtable + slot))
        guard relative != 0 else { return nil }
        guard relative >= 4, relative <= objectLength - size else {
            throw FlatBufferError(.badVTable, at: vtable + slot,
                                  "\(what): field at offset \(relative) lies outside its \(objectLength)-byte table")
        }
        return position + relative
    }

    /// Whether field `index` is present.
    public func hasField(_ index: Int) -> Bool {
        let slot = 4 + 2 * index
        return slot + 2 <= vtableLength && buffer.loadUnchecked(UInt16.self, at: vtable + slot) != 0
    }

    // MARK: Scalars

    /// An integer field, or `defaultValue` when absent.
    @inlinable
    public func integer<T: FixedWidthInteger>(_ index: Int, default defaultValue: T,
                                              _ what: StaticString) throws(FlatBufferError) -> T {
        guard let at = try fieldPosition(index, size: MemoryLayout<T>.size, what) else { return defaultValue }
        return try buffer.load(T.self, at: at, what)
    }

    /// A `float` field, or `defaultValue` when absent.
    @inlinable
    public func float(_ index: Int, default defaultValue: Float, _ what: StaticString) throws(FlatBufferError) -> Float {
        guard let at = try fieldPosition(index, size: 4, what) else { return defaultValue }
        return Float(bitPattern: try buffer.load(UInt32.self, at: at, what))
    }

    /// A `double` field, or `defaultValue` when absent.
    @inlinable
    public func double(_ index: Int, default defaultValue: Double, _ what: StaticString) throws(FlatBufferError) -> Double {
        guard let at = try fieldPosition(index, size: 8, what) else { return defaultValue }
        return Double(bitPattern: try buffer.load(UInt64.self, at: at, what))
    }

    /// A `bool` field (any non-zero byte is true), or `defaultValue` when absent.
    @inlinable
    public func bool(_ index: Int, default defaultValue: Bool, _ what: StaticString) throws(FlatBufferError) -> Bool {
        guard let at = try fieldPosition(index, size: 1, what) else { return defaultValue }
        return try buffer.load(UInt8.self, at: at, what) != 0
    }

    // MARK: Offsets to other objects

    /// The target of offset field `index`, or nil when absent.
    func target(_ index: Int, _ what: StaticString) throws(FlatBufferError) -> Int? {
        guard let at = try fieldPosition(index, size: 4, what) else { return nil }
        return try buffer.deref(at, what)
    }

    /// A sub-table field, or nil when absent.
    public func table(_ index: Int, _ what: StaticString) throws(FlatBufferError) -> Table? {
        guard let at = try target(index, what) else { return nil }
        return try buffer.table(at: at, depth: depth + 1, what)
    }

    /// A string field decoded from UTF-8 (invalid sequences replaced), or nil when absent.
    public func string(_ index: Int, _ what: StaticString) throws(FlatBufferError) -> String? {
        guard let at = try target(index, what) else { return nil }
        let (start, count) = try buffer.vector(at: at, elementSize: 1, chargeElements: false, what)
        guard start + count < buffer.bytes.count, buffer.bytes[start + count] == 0 else {
            throw FlatBufferError(.unterminatedString, at: at, "\(what): string of \(count) bytes has no terminating zero byte")
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer.bytes[start..<(start + count)]), as: UTF8.self)
    }

    /// The byte range of a `[ubyte]` or `[byte]` vector field, without copying, or nil when
    /// absent.
    public func byteVector(_ index: Int, _ what: StaticString) throws(FlatBufferError) -> Range<Int>? {
        guard let at = try target(index, what) else { return nil }
        let (start, count) = try buffer.vector(at: at, elementSize: 1, chargeElements: false, what)
        return start..<(start + count)
    }

    /// The elements of a vector-of-integers field; empty when absent. Copied in one block,
    /// as FlatBuffer scalars are little-endian like the hosts Swift runs on.
    public func integers<T: FixedWidthInteger>(_ index: Int, of _: T.Type,
                                               _ what: StaticString) throws(FlatBufferError) -> [T] {
        guard let at = try target(index, what) else { return [] }
        let (start, count) = try buffer.vector(at: at, elementSize: MemoryLayout<T>.size, chargeElements: true, what)
        let source = UnsafeRawBufferPointer(rebasing: buffer.bytes[start..<(start + count * MemoryLayout<T>.size)])
        let out = [T](unsafeUninitializedCapacity: count) { elements, initialized in
            UnsafeMutableRawBufferPointer(elements).copyMemory(from: source)
            initialized = count
        }
        #if _endian(big)
        return out.map { T(littleEndian: $0) }
        #else
        return out
        #endif
    }

    /// The elements of a `[float]` field; empty when absent.
    public func floats(_ index: Int, _ what: StaticString) throws(FlatBufferError) -> [Float] {
        try integers(index, of: UInt32.self, what).map { Float(bitPattern: $0) }
    }

    /// The elements of a `[double]` field; empty when absent.
    public func doubles(_ index: Int, _ what: StaticString) throws(FlatBufferError) -> [Double] {
        try integers(index, of: UInt64.self, what).map { Double(bitPattern: $0) }
    }

    /// The elements of a `[bool]` field; empty when absent.
    public func bools(_ index: Int, _ what: StaticString) throws(FlatBufferError) -> [Bool] {
        try integers(index, of: UInt8.self, what).map { $0 != 0 }
    }

    /// The tables of a vector-of-tables field; empty when absent.
    public func tables(_ index: Int, _ what: StaticString) throws(FlatBufferError) -> [Table] {
        try offsetVector(index, chargeElements: false, what) { element throws(FlatBufferError) in
            try buffer.table(at: element, depth: depth + 1, what)
        }
    }

    /// The strings of a vector-of-strings field; empty when absent.
    public func strings(_ index: Int, _ what: StaticString) throws(FlatBufferError) -> [String] {
        try offsetVector(index, chargeElements: true, what) { element throws(FlatBufferError) in
            let (s, n) = try buffer.vector(at: element, elementSize: 1, chargeElements: false, what)
            guard s + n < buffer.bytes.count, buffer.bytes[s + n] == 0 else {
                throw FlatBufferError(.unterminatedString, at: element, "\(what): string of \(n) bytes has no terminating zero byte")
            }
            return String(decoding: UnsafeRawBufferPointer(rebasing: buffer.bytes[s..<(s + n)]), as: UTF8.self)
        }
    }

    /// A vector-of-offsets field (tables or strings) read element by element: `read` gets the
    /// position each offset points to. Empty when the field is absent.
    private func offsetVector<Element>(_ index: Int, chargeElements: Bool, _ what: StaticString,
                                       _ read: (Int) throws(FlatBufferError) -> Element) throws(FlatBufferError) -> [Element] {
        guard let at = try target(index, what) else { return [] }
        let (start, count) = try buffer.vector(at: at, elementSize: 4, chargeElements: chargeElements, what)
        var out: [Element] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            out.append(try read(try buffer.deref(start + 4 * i, what)))
        }
        return out
    }

    /// The inline bytes of a struct field of `size` bytes, or nil when absent. Structs are
    /// stored in place; the caller decodes the fields from the returned offset with
    /// ``FlatBuffer/bytes`` after this check has proven the range.
    public func structPosition(_ index: Int, size: Int, alignment: Int, _ what: StaticString) throws(FlatBufferError) -> Int? {
        guard let at = try fieldPosition(index, size: size, what) else { return nil }
        try buffer.checkAlignment(at, alignment, what)
        return at
    }
}

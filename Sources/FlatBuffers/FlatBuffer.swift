/// A read-only view of a FlatBuffer whose every read is bounds- and alignment-checked.
///
/// The view does not own its bytes: the caller keeps the memory alive while the view and
/// anything read from it are in use. Reads are zero-copy; scalars are decoded
/// little-endian wherever the host is.
public struct FlatBuffer {
    /// The whole buffer.
    public let bytes: UnsafeRawBufferPointer
    /// The limits this view enforces.
    public let limits: FlatBufferLimits
    let budget: DecodeBudget

    /// The largest buffer a FlatBuffer may be: offsets are 32-bit and signed offsets must
    /// stay meaningful, so 2 GiB minus one.
    public static let maxSize = Int(Int32.max)

    /// Creates a view of `bytes`. Throws if the buffer is too small to hold a root offset
    /// or larger than ``maxSize``.
    public init(bytes: UnsafeRawBufferPointer, limits: FlatBufferLimits? = nil) throws(FlatBufferError) {
        guard bytes.count >= 8 else {
            throw FlatBufferError(.outOfBounds, at: 0, "buffer of \(bytes.count) bytes is too small for a FlatBuffer (needs at least 8)")
        }
        guard bytes.count <= FlatBuffer.maxSize else {
            throw FlatBufferError(.lengthOverflow, at: 0, "buffer of \(bytes.count) bytes exceeds the FlatBuffer limit of 2 GiB")
        }
        self.bytes = bytes
        self.limits = limits ?? .proportional(toSize: bytes.count)
        self.budget = DecodeBudget(self.limits.maxObjects)
    }

    /// The four identifier bytes after the root offset, as text.
    public var fileIdentifier: String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[4..<8]), as: UTF8.self)
    }

    /// Throws unless the file identifier equals `identifier` (four ASCII characters).
    public func expectIdentifier(_ identifier: String) throws(FlatBufferError) {
        guard Array(identifier.utf8) == Array(bytes[4..<8]) else {
            throw FlatBufferError(.badIdentifier, at: 4, "file identifier is '\(printable(fileIdentifier))', expected '\(identifier)'")
        }
    }

    /// The root table.
    public func root() throws(FlatBufferError) -> Table {
        try table(at: deref(0, "root offset"), depth: 0, "root table")
    }

    // MARK: Checked primitive reads

    /// Throws unless `count` bytes from `offset` lie inside the buffer.
    @inlinable
    func checkRange(_ offset: Int, _ count: Int, _ what: StaticString) throws(FlatBufferError) {
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else {
            throw FlatBufferError(.outOfBounds, at: offset,
                                  "\(what): \(count) bytes at offset \(offset) run past the end of the \(bytes.count)-byte buffer")
        }
    }

    /// Throws unless `offset` is a multiple of `alignment`.
    @inlinable
    func checkAlignment(_ offset: Int, _ alignment: Int, _ what: StaticString) throws(FlatBufferError) {
        guard offset % alignment == 0 else {
            throw FlatBufferError(.misaligned, at: offset, "\(what): offset \(offset) is not \(alignment)-byte aligned")
        }
    }

    /// Reads a little-endian integer after checking its bounds and alignment.
    @inlinable
    func load<T: FixedWidthInteger>(_: T.Type, at offset: Int, _ what: StaticString) throws(FlatBufferError) -> T {
        try checkRange(offset, MemoryLayout<T>.size, what)
        try checkAlignment(offset, MemoryLayout<T>.size, what)
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// Reads an integer whose bounds the caller has already proven.
    @inlinable
    func loadUnchecked<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// Follows the unsigned 32-bit offset stored at `offset` and returns its target.
    func deref(_ offset: Int, _ what: StaticString) throws(FlatBufferError) -> Int {
        let relative = try load(UInt32.self, at: offset, what)
        let target = offset + Int(relative)
        guard target < bytes.count else {
            throw FlatBufferError(.outOfBounds, at: offset,
                                  "\(what): offset \(relative) points to byte \(target), past the end of the \(bytes.count)-byte buffer")
        }
        return target
    }

    /// Reads the table whose start is `position`, validating its vtable.
    func table(at position: Int, depth: Int, _ what: StaticString) throws(FlatBufferError) -> Table {
        guard depth <= limits.maxDepth else {
            throw FlatBufferError(.tooDeep, at: position, "\(what): tables nest deeper than \(limits.maxDepth) levels")
        }
        try budget.spend(1, at: position)
        let soffset = try load(Int32.self, at: position, what)
        let vtable = position - Int(soffset)
        guard vtable >= 0, vtable <= bytes.count - 4 else {
            throw FlatBufferError(.badVTable, at: position, "\(what): vtable offset \(soffset) points outside the buffer")
        }
        try checkAlignment(vtable, 2, what)
        let vtableLength = Int(loadUnchecked(UInt16.self, at: vtable))
        let objectLength = Int(loadUnchecked(UInt16.self, at: vtable + 2))
        guard vtableLength >= 4, vtableLength % 2 == 0 else {
            throw FlatBufferError(.badVTable, at: vtable, "\(what): vtable length \(vtableLength) is not an even number of at least 4")
        }
        guard vtableLength <= bytes.count - vtable else {
            throw FlatBufferError(.badVTable, at: vtable, "\(what): vtable of \(vtableLength) bytes runs past the end of the buffer")
        }
        guard objectLength >= 4 else {
            throw FlatBufferError(.badVTable, at: vtable, "\(what): table size \(objectLength) is smaller than its vtable offset")
        }
        try checkRange(position, objectLength, what)
        return Table(buffer: self, position: position, vtable: vtable, vtableLength: vtableLength,
                     objectLength: objectLength, depth: depth)
    }

    /// Reads a vector header at `position`: checks the length prefix and that `count`
    /// elements of `elementSize` bytes fit. Spends one budget unit plus one per element when
    /// `chargeElements` is set. Returns the first element's offset and the count.
    func vector(at position: Int, elementSize: Int, chargeElements: Bool,
                _ what: StaticString) throws(FlatBufferError) -> (start: Int, count: Int) {
        let count = Int(try load(UInt32.self, at: position, what))
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow, byteCount <= bytes.count - position - 4 else {
            throw FlatBufferError(.lengthOverflow, at: position,
                                  "\(what): vector of \(count) elements of \(elementSize) bytes runs past the end of the \(bytes.count)-byte buffer")
        }
        try budget.spend(chargeElements ? 1 + count : 1, at: position)
        return (position + 4, count)
    }
}

/// Replaces control and non-ASCII characters so untrusted text is safe to show.
func printable(_ text: String) -> String {
    String(text.unicodeScalars.map { $0.isASCII && $0.value >= 32 && $0.value < 127 ? Character($0) : "?" })
}

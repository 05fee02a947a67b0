/// Assembles FlatBuffers front to back for tests, so each byte's place is known and can be
/// corrupted on purpose. Parents come first and children after them, as FlatBuffer offsets
/// only point forward.
public struct ForwardWriter {
    public var bytes: [UInt8] = []

    /// Starts a buffer: a root offset to patch with ``setRoot(_:)`` and a file identifier.
    public init(identifier: String = "TEST") {
        append(UInt32(0))
        bytes += Array(identifier.utf8.prefix(4))
    }

    public mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    @discardableResult
    public mutating func append<T: FixedWidthInteger>(_ value: T) -> Int {
        let at = bytes.count
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
        return at
    }

    public mutating func set<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (i, byte) in raw.enumerated() { bytes[offset + i] = byte }
        }
    }

    /// Points the root offset at `table`.
    public mutating func setRoot(_ table: Int) {
        set(UInt32(table), at: 0)
    }

    /// Writes the unsigned offset stored at `field` so it reaches `target`.
    public mutating func link(_ field: Int, to target: Int) {
        set(UInt32(target - field), at: field)
    }

    /// Writes a vtable and its table with one zeroed slot of `sizes[i]` bytes per present
    /// field (nil for an absent field). Returns the table's position and each field's.
    public mutating func table(_ sizes: [Int?]) -> (position: Int, fields: [Int?]) {
        pad(to: 2)
        let vtable = bytes.count
        append(UInt16(4 + 2 * sizes.count))
        append(UInt16(0))
        for _ in sizes { append(UInt16(0)) }
        // Place the table at 4 mod 8, so its field area starts 8-byte aligned.
        pad(to: 8)
        append(UInt32(0))
        let position = append(Int32(bytes.count - vtable))
        var fields: [Int?] = []
        for (i, size) in sizes.enumerated() {
            guard let size else { fields.append(nil); continue }
            pad(to: size)
            let at = bytes.count
            bytes += [UInt8](repeating: 0, count: size)
            set(UInt16(at - position), at: vtable + 4 + 2 * i)
            fields.append(at)
        }
        set(UInt16(bytes.count - position), at: vtable + 2)
        return (position, fields)
    }

    /// Writes a vector of integers with its length prefix; returns the prefix's position.
    public mutating func vector<T: FixedWidthInteger>(_ elements: [T]) -> Int {
        pad(to: 4)
        while (bytes.count + 4) % MemoryLayout<T>.size != 0 { append(UInt32(0)) }
        let at = append(UInt32(elements.count))
        for element in elements { append(element) }
        return at
    }

    /// Writes a zero-terminated string with its length prefix; returns the prefix's position.
    public mutating func string(_ text: String) -> Int {
        let at = vector(Array(text.utf8))
        bytes.append(0)
        return at
    }

    /// Writes a vector of offsets to patch with ``link(_:to:)``; returns the prefix's position
    /// and each slot's.
    public mutating func offsetVector(count: Int) -> (position: Int, slots: [Int]) {
        let at = vector([UInt32](repeating: 0, count: count))
        return (at, (0..<count).map { at + 4 + 4 * $0 })
    }
}

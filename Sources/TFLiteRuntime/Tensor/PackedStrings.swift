/// TFLite's layout of a string tensor's bytes: a little-endian int32 count `n`, then `n + 1`
/// int32 offsets from the start of the buffer (string `i` spans `offset[i]..<offset[i + 1]`),
/// then the strings' bytes, with no terminators. A string tensor of shape `s` holds
/// `product(s)` strings in C order. Strings are bytes: TFLite gives them no encoding.
public enum PackedStrings {
    /// Why a buffer is not a valid packed string list.
    public enum FormatError: Error, Equatable, CustomStringConvertible {
        case truncated(byteCount: Int)
        case negativeCount(Int)
        case offsetsPastEnd(count: Int, byteCount: Int)
        case badOffset(index: Int, offset: Int)

        public var description: String {
            switch self {
            case .truncated(let n): return "a packed string buffer needs at least 8 bytes, has \(n)"
            case .negativeCount(let n): return "the packed string count is \(n)"
            case .offsetsPastEnd(let n, let bytes): return "\(n) strings need \(4 * (n + 2)) bytes of offsets, the buffer has \(bytes)"
            case .badOffset(let i, let o): return "string offset \(i) (\(o)) is out of order or outside the buffer"
            }
        }
    }

    /// The packed encoding of `strings`.
    public static func encode<S: Sequence>(_ strings: S) -> [UInt8] where S.Element: Collection<UInt8> {
        var builder = Builder()
        for s in strings { builder.append(s) }
        return builder.packed()
    }

    /// The packed encoding of the UTF-8 bytes of `strings`.
    public static func encode(_ strings: [String]) -> [UInt8] {
        encode(strings.map { Array($0.utf8) })
    }

    /// The strings of a packed buffer, each as its bytes.
    public static func decode(_ bytes: [UInt8]) throws(FormatError) -> [[UInt8]] {
        let decoded = bytes.withUnsafeBytes { raw in
            Result { () throws(FormatError) in
                let view = try View(raw)
                return (0..<view.count).map { [UInt8](view[$0]) }
            }
        }
        return try decoded.get()
    }

    /// Collects strings and produces their packed encoding.
    public struct Builder: Sendable {
        private var ends: [Int] = []
        private var bytes: [UInt8] = []

        public init() {}

        public var count: Int { ends.count }
        /// Bytes of the packed encoding so far.
        public var packedByteCount: Int { 4 * (ends.count + 2) + bytes.count }

        public mutating func append<C: Collection<UInt8>>(_ string: C) {
            bytes.append(contentsOf: string)
            ends.append(bytes.count)
        }

        /// Appends `parts` joined by `separator`.
        public mutating func append(joining parts: [UnsafeRawBufferPointer], separator: UInt8) {
            for (k, part) in parts.enumerated() {
                if k > 0 { bytes.append(separator) }
                bytes.append(contentsOf: part)
            }
            ends.append(bytes.count)
        }

        /// The count, offsets and bytes in TFLite's layout.
        public func packed() -> [UInt8] {
            let head = 4 * (ends.count + 2)
            var out = [UInt8]()
            out.reserveCapacity(head + bytes.count)
            func put(_ v: Int) { withUnsafeBytes(of: Int32(truncatingIfNeeded: v).littleEndian) { out.append(contentsOf: $0) } }
            put(ends.count)
            put(head)
            for end in ends { put(head + end) }
            out.append(contentsOf: bytes)
            return out
        }
    }

    /// A validated read-only view of a packed buffer; reads need no alignment.
    struct View {
        let base: UnsafeRawPointer
        let count: Int

        /// Checks the header and every offset: after this, every string lies inside `raw`.
        init(_ raw: UnsafeRawBufferPointer) throws(FormatError) {
            guard raw.count >= 8, let base = raw.baseAddress else { throw .truncated(byteCount: raw.count) }
            let n = Int(Int32(littleEndian: base.loadUnaligned(as: Int32.self)))
            guard n >= 0 else { throw .negativeCount(n) }
            guard n <= (raw.count - 8) / 4 else { throw .offsetsPastEnd(count: n, byteCount: raw.count) }
            var previous = 4 * (n + 2)
            for i in 0...n {
                let o = Int(Int32(littleEndian: base.loadUnaligned(fromByteOffset: 4 * (i + 1), as: Int32.self)))
                guard o >= previous, o <= raw.count else { throw .badOffset(index: i, offset: o) }
                previous = o
            }
            self.base = base
            self.count = n
        }

        private func offset(_ i: Int) -> Int {
            Int(Int32(littleEndian: base.loadUnaligned(fromByteOffset: 4 * (i + 1), as: Int32.self)))
        }

        subscript(i: Int) -> UnsafeRawBufferPointer {
            let start = offset(i)
            return UnsafeRawBufferPointer(start: base + start, count: offset(i + 1) - start)
        }
    }
}

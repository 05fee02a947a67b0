/// CRC-32 as used by PNG and zlib's gzip (reflected polynomial 0xEDB88320, initial and final
/// value 0xFFFFFFFF), computed eight bytes at a time ("slicing-by-8").
public struct CRC32: Sendable {
    /// `tables[k][b]`: the CRC contribution of byte `b` followed by `k` zero bytes;
    /// table 0 is the classic byte-at-a-time table.
    private static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let previous = t[(k - 1) * 256 + n]
                t[k * 256 + n] = t[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return t
    }()

    private var state: UInt32 = 0xFFFF_FFFF

    /// A CRC with no data yet.
    public init() {}

    /// Feeds `bytes` into the checksum.
    public mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var c = state
        Self.tables.withUnsafeBufferPointer { t in
            var i = 0
            let n = bytes.count
            while n - i >= 8 {
                let lo = c ^ (UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
                c = t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int(lo >> 8 & 0xFF)]
                    ^ t[5 * 256 + Int(lo >> 16 & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(bytes[i + 4])] ^ t[2 * 256 + Int(bytes[i + 5])]
                    ^ t[256 + Int(bytes[i + 6])] ^ t[Int(bytes[i + 7])]
                i += 8
            }
            while i < n {
                c = t[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
        }
        state = c
    }

    /// Feeds the bytes of an array or array slice into the checksum.
    public mutating func update<C: RandomAccessCollection>(_ bytes: C) where C.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update($0) }) { return done }
        update(Array(bytes))
    }

    /// The checksum of everything fed so far.
    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    /// The checksum of `bytes`.
    public static func checksum<C: RandomAccessCollection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}

/// Adler-32, the checksum that ends every zlib stream (RFC 1950).
public struct Adler32: Sendable {
    private var a: UInt32 = 1
    private var b: UInt32 = 0

    /// A checksum with no data yet.
    public init() {}

    /// Feeds `bytes` into the checksum. Sums are reduced every 5552 bytes, the longest run
    /// for which `b` cannot overflow 32 bits.
    public mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var i = 0
        while i < bytes.count {
            let end = min(bytes.count, i + 5552)
            while i < end {
                a &+= UInt32(bytes[i])
                b &+= a
                i += 1
            }
            a %= 65_521
            b %= 65_521
        }
    }

    /// Feeds an array's bytes into the checksum.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update($0) }
    }

    /// The checksum of everything fed so far.
    public var value: UInt32 { (b << 16) | a }
}

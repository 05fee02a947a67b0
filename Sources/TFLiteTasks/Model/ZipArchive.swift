import Foundation
import Imaging

/// Reads the zip archive that the TFLite metadata writer appends to a model file (label
/// files and other associated files). Stored and deflated entries are supported; every
/// offset is checked against the file.
struct ZipArchive {
    /// One entry of the central directory.
    struct Entry {
        let name: String
        let method: UInt16
        let compressedSize: Int
        let uncompressedSize: Int
        let localHeaderOffset: Int
    }

    let bytes: UnsafeRawBufferPointer
    let entries: [Entry]
    /// Largest entry this reader inflates (label files are small).
    static let maxEntrySize = 64 << 20

    /// Parses the central directory found through the end-of-central-directory record at the
    /// end of `bytes`; nil when there is no archive.
    init?(bytes: UnsafeRawBufferPointer) throws(TaskError) {
        self.bytes = bytes
        let n = bytes.count
        guard n >= 22 else { return nil }
        // The EOCD record is 22 bytes plus a comment of up to 65535 bytes.
        var eocd = -1
        var i = n - 22
        let lowest = max(0, n - 22 - 65_535)
        while i >= lowest {
            if Self.u32(bytes, i) == 0x0605_4b50 { eocd = i; break }
            i -= 1
        }
        guard eocd >= 0 else { return nil }
        let count = Int(Self.u16(bytes, eocd + 10))
        let dirSize = Int(Self.u32(bytes, eocd + 12))
        let dirOffset = Int(Self.u32(bytes, eocd + 16))
        // Files with a prepended payload (the model) keep offsets relative to the archive
        // start; the archive starts where the directory's recorded end falls short of the EOCD.
        guard dirSize <= eocd, dirOffset <= eocd - dirSize else {
            throw .unsupportedModel("zip central directory (\(dirSize) bytes at \(dirOffset)) lies outside the file")
        }
        let base = eocd - dirSize - dirOffset
        var entries: [Entry] = []
        var p = eocd - dirSize
        for index in 0..<count {
            guard p + 46 <= eocd, Self.u32(bytes, p) == 0x0201_4b50 else {
                throw .unsupportedModel("zip central directory entry \(index) at byte \(p) is damaged")
            }
            let nameLength = Int(Self.u16(bytes, p + 28)), extra = Int(Self.u16(bytes, p + 30)), comment = Int(Self.u16(bytes, p + 32))
            guard p + 46 + nameLength <= eocd else { throw .unsupportedModel("zip entry \(index) name runs past the directory") }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(p + 46)..<(p + 46 + nameLength)]), as: UTF8.self)
            entries.append(Entry(name: name, method: Self.u16(bytes, p + 10),
                                 compressedSize: Int(Self.u32(bytes, p + 20)), uncompressedSize: Int(Self.u32(bytes, p + 24)),
                                 localHeaderOffset: base + Int(Self.u32(bytes, p + 42))))
            p += 46 + nameLength + extra + comment
        }
        self.entries = entries
    }

    /// The contents of the entry named `name`, or nil when there is none.
    func contents(of name: String) throws(TaskError) -> [UInt8]? {
        guard let e = entries.first(where: { $0.name == name }) else { return nil }
        let h = e.localHeaderOffset
        guard h >= 0, h + 30 <= bytes.count, Self.u32(bytes, h) == 0x0403_4b50 else {
            throw .unsupportedModel("zip entry '\(name)': local header at byte \(h) is damaged")
        }
        let start = h + 30 + Int(Self.u16(bytes, h + 26)) + Int(Self.u16(bytes, h + 28))
        guard e.compressedSize <= Self.maxEntrySize, e.uncompressedSize <= Self.maxEntrySize,
              start <= bytes.count, e.compressedSize <= bytes.count - start else {
            throw .unsupportedModel("zip entry '\(name)' (\(e.compressedSize) bytes at \(start)) runs past the end of the file")
        }
        let data = Array(bytes[start..<(start + e.compressedSize)])
        switch e.method {
        case 0: return data
        case 8:
            do { return try Inflate.raw(data, maxOutput: max(e.uncompressedSize, 1)) } catch {
                throw .unsupportedModel("zip entry '\(name)': \(error)")
            }
        default: throw .unsupportedModel("zip entry '\(name)' uses compression method \(e.method)")
        }
    }

    private static func u16(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt16 {
        UInt16(b[at]) | UInt16(b[at + 1]) << 8
    }

    private static func u32(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }
}

import Foundation
import Imaging

/// Decodes a gzip-encoded (RFC 1952) response body with Imaging's DEFLATE inflater.
///
/// The downloader asks for `identity`, so this is only for servers that compress anyway. The
/// inflater works on whole buffers, so the body is decoded once it is complete; the decoded
/// bytes are then checked against the manifest like any other body.
enum GzipBody {
    /// The most compressed bytes accepted for a body that may decode to `decodedLimit`
    /// bytes: DEFLATE adds at most 5 bytes per 64 KiB stored block, and the gzip header's
    /// optional name, comment and extra field are allowed 64 KiB.
    static func encodedLimit(decodedLimit: Int) -> Int {
        let (limit, overflow) = decodedLimit.addingReportingOverflow(decodedLimit / 1024 + 65_536)
        return overflow ? Int.max : limit
    }

    /// The decoded body.
    /// - Throws: `ModelDownloadError.corruptEncoding` for a bad header, bad DEFLATE data, a
    ///   CRC-32 or length that does not match, or more than `decodedLimit` decoded bytes.
    static func decode(_ data: [UInt8], decodedLimit: Int, url: URL) throws(ModelDownloadError) -> [UInt8] {
        func corrupt(_ reason: String) -> ModelDownloadError {
            .corruptEncoding(url: url, encoding: "gzip", reason: reason)
        }
        let start = try deflateStart(data, corrupt: corrupt)
        guard data.count - start >= 8 else { throw corrupt("the data ends before the gzip trailer") }
        let decoded: [UInt8]
        do {
            decoded = try Inflate.raw(Array(data[start..<(data.count - 8)]), maxOutput: decodedLimit)
        } catch {
            throw corrupt(reason(error))
        }
        let trailer = data.suffix(8)
        let crc = littleEndian(trailer.prefix(4)), length = littleEndian(trailer.suffix(4))
        guard CRC32.checksum(decoded) == crc else {
            throw corrupt("the CRC-32 of the decoded bytes does not match the gzip trailer")
        }
        // The trailer holds the length modulo 2^32.
        guard UInt32(truncatingIfNeeded: decoded.count) == length else {
            throw corrupt("decoded \(decoded.count) bytes, the gzip trailer says \(length) (mod 2^32)")
        }
        return decoded
    }

    /// The offset of the DEFLATE data after the gzip header and its optional fields.
    private static func deflateStart(
        _ data: [UInt8], corrupt: (String) -> ModelDownloadError
    ) throws(ModelDownloadError) -> Int {
        guard data.count >= 10, data[0] == 0x1f, data[1] == 0x8b else { throw corrupt("no gzip header") }
        guard data[2] == 8 else { throw corrupt("compression method \(data[2]), expected 8 (deflate)") }
        let flags = data[3]
        guard flags & 0xe0 == 0 else { throw corrupt("reserved header flags are set") }
        var offset = 10
        if flags & 0x04 != 0 {  // FEXTRA: a 2-byte length, then that many bytes.
            guard data.count >= offset + 2 else { throw corrupt("the header's extra field is cut short") }
            offset += 2 + (Int(data[offset]) | Int(data[offset + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated.
            guard let end = data[min(offset, data.count)...].firstIndex(of: 0) else {
                throw corrupt("the header's name or comment is not terminated")
            }
            offset = end + 1
        }
        if flags & 0x02 != 0 { offset += 2 }  // FHCRC: a header CRC-16, not checked.
        guard offset <= data.count else { throw corrupt("the header is cut short") }
        return offset
    }

    private static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The inflater's message without the image-format prefix it carries for PNG.
    private static func reason(_ error: ImageError) -> String {
        switch error {
        case .truncated(_, let what), .malformed(_, let what), .checksumMismatch(_, let what), .unsupported(_, let what):
            return what
        case .limitExceeded(let what), .invalidArgument(let what):
            return what
        case .unrecognizedFormat:
            return "\(error)"
        }
    }
}

import Foundation

/// A `.npy` golden or input of the LiteRT corpus: its shape and raw little-endian bytes.
/// Read here rather than through the runtime, so these tests use only `TensorFlowLite`.
struct NPYFile {
    let shape: [Int]
    let data: Data

    init(contentsOf url: URL) throws {
        let bytes = try Data(contentsOf: url)
        // Magic (6 bytes), version (2), header length (2 bytes in version 1, else 4), header.
        guard bytes.count >= 10, bytes.prefix(6) == Data([0x93] + Array("NUMPY".utf8)) else {
            throw NPYError.malformed(url.lastPathComponent)
        }
        let major = bytes[bytes.startIndex + 6]
        let lengthBytes = major == 1 ? 2 : 4
        var headerLength = 0
        for i in (0..<lengthBytes).reversed() { headerLength = headerLength << 8 | Int(bytes[bytes.startIndex + 8 + i]) }
        let headerStart = 8 + lengthBytes
        guard bytes.count >= headerStart + headerLength,
              let header = String(data: bytes.subdata(in: headerStart..<headerStart + headerLength), encoding: .ascii),
              let open = header.range(of: "'shape': ("), let close = header[open.upperBound...].firstIndex(of: ")")
        else { throw NPYError.malformed(url.lastPathComponent) }
        shape = header[open.upperBound..<close].split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        data = bytes.subdata(in: headerStart + headerLength..<bytes.count)
    }
}

enum NPYError: Error {
    case malformed(String)
}

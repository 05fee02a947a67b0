#if canImport(Glibc)
import Foundation

/// Reads an HTTP/1.1 response from a `SocketConnection`: the head (status line and header
/// fields), then the body as framed by RFC 9112 section 6: `Transfer-Encoding: chunked`,
/// `Content-Length`, or the end of the connection. Every size read from the server is
/// bounded before it is used.
struct HTTPResponseReader {
    /// The largest response head accepted.
    static let maximumHeadBytes = 64 * 1024

    private let connection: SocketConnection
    private let url: URL
    /// Bytes received and not consumed yet: `buffer[position...]`.
    private var buffer: [UInt8] = []
    private var position = 0

    init(_ connection: SocketConnection, url: URL) {
        self.connection = connection
        self.url = url
    }

    /// Reads the final response head, skipping interim 1xx responses.
    mutating func readHead() throws(ModelDownloadError) -> HTTPResponseHead {
        while true {
            let head = try parseHead(try readHeadBytes())
            if (100..<200).contains(head.statusCode), head.statusCode != 101 { continue }
            return head
        }
    }

    /// Reads the body of the response with `head`, handing each piece to `deliver` in order.
    mutating func readBody(of head: HTTPResponseHead, deliver: ([UInt8]) throws(ModelDownloadError) -> Void) throws(ModelDownloadError) {
        if head.statusCode == 204 || head.statusCode == 304 || (100..<200).contains(head.statusCode) { return }
        if let codings = head.header("Transfer-Encoding") {
            guard codings.trimmingCharacters(in: .whitespaces).lowercased() == "chunked" else {
                throw .unsupportedEncoding(url: url, encoding: codings)
            }
            return try readChunked(deliver)
        }
        guard let lengthText = head.header("Content-Length") else {
            // No framing: the body runs to the end of the connection.
            while true {
                let piece = try readSome(upTo: 64 * 1024)
                if piece.isEmpty { return }
                try deliver(piece)
            }
        }
        // Repeated fields arrive joined with ", "; they must agree.
        let lengths = Set(lengthText.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard lengths.count == 1, let only = lengths.first, let length = Int64(only), length >= 0 else {
            throw .transport(url: url, message: "invalid Content-Length '\(lengthText.prefix(80))'")
        }
        try readExactly(length, deliver)
    }

    // MARK: Framing

    private mutating func readExactly(_ length: Int64, _ deliver: ([UInt8]) throws(ModelDownloadError) -> Void) throws(ModelDownloadError) {
        var left = length
        while left > 0 {
            let piece = try readSome(upTo: Int(min(left, 64 * 1024)))
            guard !piece.isEmpty else {
                throw .transport(url: url, message: "the connection closed after \(length - left) of \(length) bytes")
            }
            try deliver(piece)
            left -= Int64(piece.count)
        }
    }

    private mutating func readChunked(_ deliver: ([UInt8]) throws(ModelDownloadError) -> Void) throws(ModelDownloadError) {
        while true {
            let line = try readLine(limit: 4096, what: "chunk size line")
            // The size in hexadecimal, optionally followed by `;extensions`.
            let sizeText = line.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let digits = sizeText.trimmingCharacters(in: .whitespaces)
            guard !digits.isEmpty, digits.count <= 15, let size = Int64(digits, radix: 16) else {
                throw .transport(url: url, message: "invalid chunk size line '\(line.prefix(80))'")
            }
            if size == 0 { break }
            try readExactly(size, deliver)
            guard try readLine(limit: 2, what: "chunk end").isEmpty else {
                throw .transport(url: url, message: "a chunk is longer than its size line says")
            }
        }
        // Trailer fields, ignored, up to the empty line.
        var trailerBytes = 0
        while true {
            let line = try readLine(limit: HTTPResponseReader.maximumHeadBytes, what: "trailer")
            if line.isEmpty { return }
            trailerBytes += line.utf8.count
            guard trailerBytes <= HTTPResponseReader.maximumHeadBytes else {
                throw .transport(url: url, message: "the chunked trailer is larger than \(HTTPResponseReader.maximumHeadBytes) bytes")
            }
        }
    }

    // MARK: Head

    /// The head's bytes up to and including the empty line that ends it.
    private mutating func readHeadBytes() throws(ModelDownloadError) -> [UInt8] {
        var scanned = position
        while true {
            // The head ends at an empty line: LF LF, or LF CR LF (servers may omit the CRs).
            var index = scanned
            while index < buffer.count {
                if buffer[index] == 0x0A, index > position {
                    if index + 1 < buffer.count, buffer[index + 1] == 0x0A { return take(upTo: index + 2) }
                    if index + 2 < buffer.count, buffer[index + 1] == 0x0D, buffer[index + 2] == 0x0A { return take(upTo: index + 3) }
                }
                index += 1
            }
            scanned = max(position, buffer.count - 2)
            guard buffer.count - position <= HTTPResponseReader.maximumHeadBytes else {
                throw .transport(url: url, message: "the response head is larger than \(HTTPResponseReader.maximumHeadBytes) bytes")
            }
            guard try fill() else {
                let what = buffer.count == position ? "before answering" : "in the middle of the response head"
                throw .transport(url: url, message: "the server closed the connection \(what)")
            }
        }
    }

    private func parseHead(_ bytes: [UInt8]) throws(ModelDownloadError) -> HTTPResponseHead {
        // Split as bytes: in a String, CR LF is a single Character that "\n" does not match.
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        let statusLine = lines.first ?? ""
        let words = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard words.count >= 2, words[0].hasPrefix("HTTP/1."), words[1].count == 3,
              let status = Int(words[1]), (100...599).contains(status)
        else {
            throw .transport(url: url, message: "the reply is not HTTP/1.x: '\(statusLine.prefix(80))'")
        }
        var fields: [String: String] = [:]
        var lastName: String?
        for line in lines.dropFirst() where !line.isEmpty {
            if line.first == " " || line.first == "\t", let name = lastName {
                // An obsolete folded continuation of the previous field.
                fields[name, default: ""] += " " + line.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else {
                throw .transport(url: url, message: "malformed header line '\(line.prefix(80))'")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { $0 + ", " + value } ?? value
            lastName = name
        }
        return HTTPResponseHead(url: url, statusCode: status, headers: fields)
    }

    // MARK: Bytes

    /// One line without its line ending, at most `limit` bytes long.
    private mutating func readLine(limit: Int, what: String) throws(ModelDownloadError) -> String {
        var scanned = position
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                var line = take(upTo: newline + 1).dropLast()
                if line.last == 0x0D { line = line.dropLast() }
                return String(decoding: line, as: UTF8.self)
            }
            scanned = buffer.count
            guard buffer.count - position <= limit + 2 else {
                throw .transport(url: url, message: "the \(what) is longer than \(limit) bytes")
            }
            guard try fill() else {
                throw .transport(url: url, message: "the connection closed in the middle of a \(what)")
            }
        }
    }

    /// Up to `limit` bytes: what is buffered, else what one receive brings; empty at the end
    /// of the connection.
    private mutating func readSome(upTo limit: Int) throws(ModelDownloadError) -> [UInt8] {
        if position == buffer.count {
            guard try fill() else { return [] }
        }
        return take(upTo: min(buffer.count, position + limit))
    }

    /// Consumes `buffer[position..<end]`.
    private mutating func take(upTo end: Int) -> [UInt8] {
        let bytes = Array(buffer[position..<end])
        position = end
        if position == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            position = 0
        }
        return bytes
    }

    /// Receives more bytes into the buffer; false at the end of the connection. Never moves
    /// the buffered bytes, so offsets into `buffer` stay valid (`take` empties it once all
    /// is consumed, which keeps it to about one receive plus one line or head).
    private mutating func fill() throws(ModelDownloadError) -> Bool {
        let received = try connection.receive()
        buffer.append(contentsOf: received)
        return !received.isEmpty
    }
}
#endif

import Foundation

/// The status and header fields of an HTTP response, the same whichever client received it.
struct HTTPResponseHead: Sendable {
    /// The URL that answered, after redirects.
    let url: URL
    let statusCode: Int
    /// Header fields by lowercased name; repeated fields joined with ", ".
    let headers: [String: String]

    init(url: URL, statusCode: Int, headers: [String: String]) {
        self.url = url
        self.statusCode = statusCode
        self.headers = headers
    }

    /// The field `name` (any case), or nil.
    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The body's content coding (RFC 9110 8.4).
    var contentCoding: ContentCoding {
        ContentCoding(header: header("Content-Encoding"))
    }

    /// The length of the decoded body when the head states it: `Content-Length` of a body
    /// sent without content coding (for a gzip body it counts the compressed bytes).
    var decodedLength: Int64? {
        guard contentCoding == .identity, let text = header("Content-Length"),
              let length = Int64(text.trimmingCharacters(in: .whitespaces)), length >= 0
        else { return nil }
        return length
    }
}

/// A body's content coding, as far as the downloader is concerned.
enum ContentCoding: Equatable, Sendable {
    /// Sent as stored.
    case identity
    /// gzip (RFC 1952), also spelled `x-gzip`.
    case gzip
    /// Anything else (`br`, `zstd`, `deflate`, several codings...): refused by name.
    case unsupported(String)

    /// Reads a `Content-Encoding` value; absent or `identity` entries mean none.
    init(header: String?) {
        let codings = (header ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        switch codings {
        case []: self = .identity
        case ["gzip"], ["x-gzip"]: self = .gzip
        default: self = .unsupported(codings.joined(separator: ", "))
        }
    }
}

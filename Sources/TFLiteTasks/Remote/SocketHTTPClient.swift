#if canImport(Glibc)
import Foundation

/// HTTP/1.1 GET of `http` URLs over a plain TCP socket, used on Linux instead of URLSession.
///
/// swift-corelibs-foundation drives libcurl from libdispatch sources and never removes the
/// socket's write source once libcurl has waited to connect; a connected socket is always
/// writable, so while the response is awaited that source fires without pause and each
/// firing asks libcurl for progress: waiting on a silent server keeps a core busy. Here every
/// wait blocks in poll(2) instead (see `SocketConnection`). It has no TLS, so `https` stays
/// with URLSession.
///
/// One connection per request (`Connection: close`); redirects are followed here until one
/// leads to `https`, which is handed back to the caller.
struct SocketHTTPClient {
    /// How a request ended.
    enum Outcome {
        /// The body was delivered in full.
        case finished
        /// A redirect leads to a URL this client cannot fetch (`https`).
        case handOff(URL, HTTPRedirects)
    }

    let headers: [String: String]
    let limits: AttemptLimits
    /// The most decoded body bytes the caller accepts (bounds a gzip body held for decoding).
    let decodedLimit: Int
    let wake: WakeSignal
    let onResponse: HTTPRequest.ResponseHandler
    let onData: HTTPRequest.DataHandler

    /// Fetches `url`, following redirects. Blocks the calling thread in poll(2) while it
    /// waits, so it runs on a thread of its own, never on the concurrency pool.
    func run(_ url: URL, redirects: HTTPRedirects) throws(ModelDownloadError) -> Outcome {
        var url = url
        var redirects = redirects
        while true {
            guard url.scheme?.lowercased() == "http" else { return .handOff(url, redirects) }
            let connection = try SocketConnection(to: url, limits: limits, wake: wake)
            try connection.send(request(for: url))
            var reader = HTTPResponseReader(connection, url: url)
            let head = try reader.readHead()
            if let target = try redirectTarget(of: head) {
                try redirects.follow(to: target)
                url = target
                continue
            }
            try onResponse(head)
            switch head.contentCoding {
            case .identity:
                try reader.readBody(of: head) { piece throws(ModelDownloadError) in try onData(Data(piece)) }
            case .gzip:
                // The inflater needs the whole stream: collect it (bounded), then decode.
                var encoded: [UInt8] = []
                let limit = GzipBody.encodedLimit(decodedLimit: decodedLimit)
                try reader.readBody(of: head) { piece throws(ModelDownloadError) in
                    guard piece.count <= limit - encoded.count else {
                        throw .corruptEncoding(url: url, encoding: "gzip", reason: "more than \(limit) compressed bytes for at most \(decodedLimit) decoded")
                    }
                    encoded.append(contentsOf: piece)
                }
                try onData(Data(try GzipBody.decode(encoded, decodedLimit: decodedLimit, url: url)))
            case .unsupported(let coding):
                throw .unsupportedEncoding(url: url, encoding: coding)
            }
            return .finished
        }
    }

    /// The request head: origin-form target, the caller's fields, one connection per request.
    private func request(for url: URL) -> [UInt8] {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        let host = url.host ?? ""
        var authority = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = url.port { authority += ":\(port)" }
        var fields = ["Host": authority, "User-Agent": "swift-tflite", "Accept": "*/*", "Connection": "close"]
        fields.merge(headers) { _, caller in caller }
        var text = "GET \(target) HTTP/1.1\r\n"
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            text += "\(name): \(value)\r\n"
        }
        return Array((text + "\r\n").utf8)
    }

    /// Where a redirect response points, or nil for any other response.
    private func redirectTarget(of head: HTTPResponseHead) throws(ModelDownloadError) -> URL? {
        guard [301, 302, 303, 307, 308].contains(head.statusCode), let location = head.header("Location") else { return nil }
        guard let target = URL(string: location, relativeTo: head.url)?.absoluteURL else {
            throw .transport(url: head.url, message: "the redirect's Location is not a URL: '\(location.prefix(200))'")
        }
        return target
    }
}
#endif

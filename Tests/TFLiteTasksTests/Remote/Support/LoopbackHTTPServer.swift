import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on 127.0.0.1 (ephemeral port) with scripted replies per path, so
/// download tests run against real sockets and can inject faults the way a real server or
/// network fails. One thread per connection; every reply closes its connection.
final class LoopbackHTTPServer: @unchecked Sendable {
    /// What the server does with one request.
    enum Reply: Sendable {
        /// 200 with the body (206 for a satisfiable `Range: bytes=N-`). Without
        /// `contentLength` the body is delimited by closing the connection.
        case body([UInt8], contentLength: Bool = true)
        /// The status with a short text body.
        case status(Int)
        /// 200 announcing the whole body, then only its first `bytes` bytes, then the
        /// connection is closed. Ignores `Range`.
        case dropAfter([UInt8], bytes: Int)
        /// 200 announcing the whole body, its first `bytes` bytes, then silence for `seconds`.
        case stall([UInt8], bytes: Int, seconds: Double)
        /// Reads the request, then says nothing at all (not even a status line) for `seconds`.
        case silence(seconds: Double)
        /// 200 announcing the whole body, then one byte every `interval` seconds.
        case drip([UInt8], interval: Double)
        /// 200 with these (already encoded) bytes, announced with their own length and
        /// `Content-Encoding: encoding`, whatever the request's `Accept-Encoding` says.
        case encoded([UInt8], encoding: String)
        /// 200 with the body in `Transfer-Encoding: chunked`, `chunkSize` bytes a chunk, each
        /// with a chunk extension, then the `trailer` field line if any.
        case chunked([UInt8], chunkSize: Int, trailer: String?)
        /// 302 to `location`.
        case redirect(String)
        /// These bytes instead of an HTTP response, then the connection is closed.
        case raw([UInt8])
    }

    /// One request as received.
    struct Request: Sendable {
        var path: String
        /// Header fields, names lowercased.
        var headers: [String: String]
    }

    /// The port the server listens on.
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var routes: [String: [Reply]] = [:]
    private var log: [Request] = []

    /// Starts listening on 127.0.0.1 at a free port.
    init() throws {
        (listener, port) = try loopbackSocket(listening: true)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting connections.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Scripts the replies for `path`: served in order, the last one repeating.
    func route(_ path: String, _ replies: Reply...) {
        route(path, replies)
    }

    /// Scripts the replies for `path`: served in order, the last one repeating.
    func route(_ path: String, _ replies: [Reply]) {
        lock.withLock { routes[path] = replies }
    }

    /// The requests received for `path` so far.
    func requests(to path: String) -> [Request] {
        lock.withLock { log.filter { $0.path == path } }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in
                #if canImport(Darwin)
                var one: Int32 = 1
                setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
                #endif
                serve(connection)
                close(connection)
            }
        }
    }

    private func serve(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = readRequest(connection) else { return }
        let reply: Reply = lock.withLock {
            log.append(request)
            guard var replies = routes[request.path], !replies.isEmpty else { return .status(404) }
            let next = replies.removeFirst()
            if !replies.isEmpty { routes[request.path] = replies }
            return next
        }
        switch reply {
        case .body(let bytes, let contentLength):
            if let start = rangeStart(request), start > 0 {
                guard start < bytes.count else {
                    transmit(connection, head(416, length: 0))
                    return
                }
                let rest = Array(bytes[start...])
                transmit(connection, head(206, length: rest.count,
                                      extra: ["Content-Range": "bytes \(start)-\(bytes.count - 1)/\(bytes.count)"]))
                transmit(connection, rest)
            } else {
                transmit(connection, head(200, length: contentLength ? bytes.count : nil))
                transmit(connection, bytes)
            }
        case .status(let code):
            let text = Array("status \(code)\n".utf8)
            transmit(connection, head(code, length: text.count))
            transmit(connection, text)
        case .dropAfter(let bytes, let count):
            transmit(connection, head(200, length: bytes.count))
            transmit(connection, Array(bytes.prefix(count)))
        case .stall(let bytes, let count, let seconds):
            transmit(connection, head(200, length: bytes.count))
            transmit(connection, Array(bytes.prefix(count)))
            Thread.sleep(forTimeInterval: seconds)
        case .silence(let seconds):
            Thread.sleep(forTimeInterval: seconds)
        case .drip(let bytes, let interval):
            transmit(connection, head(200, length: bytes.count))
            for byte in bytes {
                guard transmit(connection, [byte]) else { return }
                Thread.sleep(forTimeInterval: interval)
            }
        case .encoded(let bytes, let encoding):
            transmit(connection, head(200, length: bytes.count, extra: ["Content-Encoding": encoding]))
            transmit(connection, bytes)
        case .chunked(let bytes, let chunkSize, let trailer):
            transmit(connection, head(200, length: nil, extra: ["Transfer-Encoding": "chunked"]))
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                let chunk = bytes[start..<min(bytes.count, start + chunkSize)]
                // A chunk extension, which clients must skip.
                transmit(connection, Array("\(String(chunk.count, radix: 16));note=x\r\n".utf8) + chunk + Array("\r\n".utf8))
            }
            transmit(connection, Array("0\r\n\(trailer.map { $0 + "\r\n" } ?? "")\r\n".utf8))
        case .redirect(let location):
            transmit(connection, head(302, length: 0, extra: ["Location": location]))
        case .raw(let bytes):
            transmit(connection, bytes)
        }
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        while received.count < 65536 {
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received.append(contentsOf: chunk[0..<count])
            if received.count >= 4, (0...(received.count - 4)).contains(where: { Array(received[$0..<($0 + 4)]) == terminator }) {
                break
            }
        }
        let lines = String(decoding: received, as: UTF8.self).components(separatedBy: "\r\n")
        let words = lines.first?.split(separator: " ") ?? []
        guard words.count >= 2, words[0] == "GET" else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Request(path: String(words[1]), headers: headers)
    }

    private func rangeStart(_ request: Request) -> Int? {
        guard let range = request.headers["range"], range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
        return Int(range.dropFirst("bytes=".count).dropLast())
    }

    private func head(_ status: Int, length: Int?, extra: [String: String] = [:]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) Scripted\r\nConnection: close\r\nAccept-Ranges: bytes\r\n"
        if let length { text += "Content-Length: \(length)\r\n" }
        for (field, value) in extra { text += "\(field): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// Sends all of `bytes`; false when the client has gone.
    @discardableResult
    private func transmit(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, noSignal)
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}

/// A TCP socket bound to a free port on 127.0.0.1, listening or not (connections to a port
/// bound without listening are refused), and that port.
func loopbackSocket(listening: Bool) throws -> (socket: Int32, port: UInt16) {
    let fd = socket(AF_INET, streamSocket, 0)
    guard fd >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
    if listening {
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(fd, generic, length) == 0 && (!listening || listen(fd, 64) == 0)
                && getsockname(fd, generic, &length) == 0
        }
    }
    guard bound else {
        close(fd)
        throw ServerError("bind/listen: \(String(cString: strerror(errno)))")
    }
    return (fd, UInt16(bigEndian: address.sin_port))
}

// The TCP socket type, which the C libraries spell differently.
#if canImport(Darwin)
let streamSocket = SOCK_STREAM
/// Darwin has no MSG_NOSIGNAL; SO_NOSIGPIPE is set on each connection instead.
private let noSignal: Int32 = 0
#else
let streamSocket = Int32(SOCK_STREAM.rawValue)
/// A peer that hung up must give an error, not a SIGPIPE that kills the test process.
private let noSignal = Int32(MSG_NOSIGNAL)
#endif

/// A failure to start the test server.
struct ServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

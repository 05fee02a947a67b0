import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A port on 127.0.0.1 where connections are refused, held for the value's lifetime: a socket
/// bound to it without listening. A port merely closed after use could be taken by another
/// test's server running at the same time, which would then answer.
final class RefusingPort: @unchecked Sendable {
    let port: UInt16
    private let socketDescriptor: Int32

    init() throws {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw ServerError("bind: \(String(cString: strerror(errno)))")
        }
        socketDescriptor = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(socketDescriptor) }

    /// The URL of `path` on this port.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }
}

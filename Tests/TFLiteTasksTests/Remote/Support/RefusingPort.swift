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
        (socketDescriptor, port) = try loopbackSocket(listening: false)
    }

    deinit { close(socketDescriptor) }

    /// The URL of `path` on this port.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }
}

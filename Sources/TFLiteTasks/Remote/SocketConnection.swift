#if canImport(Glibc)
import Foundation
import Glibc

/// A TCP connection whose every wait (connect, send, receive) blocks in poll(2) on the socket
/// and the request's `WakeSignal`, with a timeout from the attempt's limits: a silent server
/// costs no CPU, the idle timeout and the deadline end the wait exactly, and cancellation
/// ends it at once.
final class SocketConnection {
    private let descriptor: Int32
    private let url: URL
    private let limits: AttemptLimits
    private let wake: WakeSignal
    /// Where `receive()` reads to, allocated once per connection.
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)

    /// Connects to the host and port of `url`, trying each address the name resolves to.
    /// - Throws: `.transport` naming the refusal or failure (transient), the timeout error of
    ///   `limits`, or `.cancelled`.
    init(to url: URL, limits: AttemptLimits, wake: WakeSignal) throws(ModelDownloadError) {
        self.url = url
        self.limits = limits
        self.wake = wake
        // URL.host may keep an IPv6 literal's brackets; getaddrinfo wants the bare address.
        let host = (url.host ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let port = url.port ?? 80
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        // Name resolution blocks without a timeout of its own (the resolver's applies).
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            throw .transport(url: url, message: "cannot resolve '\(host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var failures: [String] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
            let candidate = socket(address.pointee.ai_family, flags, address.pointee.ai_protocol)
            guard candidate >= 0 else {
                failures.append(String(cString: strerror(errno)))
                continue
            }
            let code = try SocketConnection.connect(candidate, to: address.pointee, url: url, limits: limits, wake: wake)
            if code == 0 {
                descriptor = candidate
                return
            }
            Glibc.close(candidate)
            failures.append(String(cString: strerror(code)))
        }
        throw .transport(url: url, message: "cannot connect to \(host) port \(port): \(failures.joined(separator: "; "))")
    }

    deinit {
        Glibc.close(descriptor)
        chunk.deallocate()
    }

    /// Connects the non-blocking `socket`, waiting for the handshake in poll; returns 0 or
    /// the errno of the failure. Closes `socket` before throwing.
    private static func connect(
        _ socket: Int32, to address: addrinfo, url: URL, limits: AttemptLimits, wake: WakeSignal
    ) throws(ModelDownloadError) -> Int32 {
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) == 0 { return 0 }
        guard errno == EINPROGRESS || errno == EINTR else { return errno }
        do {
            try wait(socket, for: Int16(POLLOUT), url: url, limits: limits, wake: wake)
        } catch {
            Glibc.close(socket)
            throw error
        }
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws(ModelDownloadError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                try SocketConnection.wait(descriptor, for: Int16(POLLOUT), url: url, limits: limits, wake: wake)
            } else {
                throw .transport(url: url, message: "cannot send the request: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Receives what has arrived, up to 64 KiB; empty when the server closed the connection.
    func receive() throws(ModelDownloadError) -> [UInt8] {
        while true {
            let count = recv(descriptor, chunk.baseAddress, chunk.count, 0)
            if count >= 0 { return [UInt8](chunk[0..<count]) }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw .transport(url: url, message: "cannot receive: \(String(cString: strerror(errno)))")
            }
            try SocketConnection.wait(descriptor, for: Int16(POLLIN), url: url, limits: limits, wake: wake)
        }
    }

    /// Blocks until `socket` is ready for `events` (or has an error to report), for at most
    /// the next wait `limits` allow.
    /// - Throws: that wait's timeout error, or `.cancelled` when `wake` is signalled.
    private static func wait(
        _ socket: Int32, for events: Int16, url: URL, limits: AttemptLimits, wake: WakeSignal
    ) throws(ModelDownloadError) {
        let (seconds, timeout) = limits.nextWait(for: url)
        let end = ContinuousClock.now + .clamped(seconds: seconds)
        while true {
            let left = max(0, TimeInterval(seconds: ContinuousClock.now.duration(to: end)))
            // Rounded up: a wait cut short by rounding would wake early for nothing.
            let milliseconds = Int32(min((left * 1000).rounded(.up), Double(Int32.max)))
            var descriptors = [pollfd(fd: socket, events: events, revents: 0),
                               pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, milliseconds)
            if ready < 0 {
                guard errno == EINTR else {
                    throw .transport(url: url, message: "poll failed: \(String(cString: strerror(errno)))")
                }
                continue
            }
            if descriptors[1].revents != 0 { throw .cancelled }
            if descriptors[0].revents != 0 { return }
            if ready == 0, left == 0 || ContinuousClock.now >= end { throw timeout }
        }
    }
}
#endif

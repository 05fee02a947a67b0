#if canImport(Glibc)
import Foundation
import Glibc

/// A pipe whose read end joins every poll(2) of a socket request, so that cancelling the
/// downloading task wakes a thread blocked in a wait at once instead of it polling for a
/// flag. Signalled from the task's cancellation handler, on any thread.
final class WakeSignal: @unchecked Sendable {
    /// Readable once `signal()` was called.
    let readDescriptor: Int32
    private let writeDescriptor: Int32
    private let lock = NSLock()
    private var isOpen = true

    /// - Parameter url: the request it serves, named if the pipe cannot be made.
    init(for url: URL) throws(ModelDownloadError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .transport(url: url, message: "cannot create a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readDescriptor = ends[0]
        writeDescriptor = ends[1]
    }

    /// Wakes the waiting thread; later waits return at once too.
    func signal() {
        lock.withLock {
            guard isOpen else { return }
            var byte: UInt8 = 1
            _ = write(writeDescriptor, &byte, 1)
        }
    }

    /// Closes the pipe; a later `signal()` does nothing (the descriptors may be reused).
    func close() {
        lock.withLock {
            guard isOpen else { return }
            isOpen = false
            _ = Glibc.close(readDescriptor)
            _ = Glibc.close(writeDescriptor)
        }
    }

    deinit { close() }
}
#endif

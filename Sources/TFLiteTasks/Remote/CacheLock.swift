import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock on a file (`flock`), held around every change to a model's
/// cache folder so that downloads in several processes, or several managers in one process,
/// cannot interleave their commits. `flock` locks belong to the open file description, so
/// two descriptors in one process exclude each other too (unlike `fcntl` record locks).
enum CacheLock {
    /// Runs `body` while holding the lock on `file`, creating the file if needed.
    ///
    /// Every holder keeps the lock for a rename or two, so waiting longer than `timeout`
    /// means a stuck process; that is reported instead of waiting forever.
    static func withLock<T>(
        on file: URL, timeout: Double = 30, _ body: () throws(ModelDownloadError) -> T
    ) throws(ModelDownloadError) -> T {
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .cache(path: file.path, reason: "cannot open lock file: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var waited = 0.0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            switch errno {
            case EINTR:
                continue
            case EWOULDBLOCK where waited < timeout:
                usleep(10_000)
                waited += 0.01
            case EWOULDBLOCK:
                throw .cache(path: file.path, reason: "still locked by another process after \(timeout) s")
            default:
                throw .cache(path: file.path, reason: "cannot lock: \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}

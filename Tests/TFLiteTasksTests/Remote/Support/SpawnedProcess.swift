import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with posix_spawn and reaped with wait4, which reports the CPU time
/// of that child alone. (Foundation's `Process` reaps its children itself, and the test
/// process's own CPU time counts every test running in parallel.)
final class SpawnedProcess: @unchecked Sendable {
    /// How the child ended and what it cost.
    struct Outcome {
        /// The exit status, or nil when a signal ended the child.
        var exitStatus: Int32?
        /// User plus system CPU seconds.
        var cpuSeconds: Double
        var wallSeconds: Double
        var stdout: String
        var stderr: String
    }

    let pid: pid_t
    private let started = ContinuousClock.now
    private let output: URL
    private let errors: URL

    /// Starts `executable` with `arguments` and this process's environment.
    init(_ executable: URL, _ arguments: [String]) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)")
        output = base.appendingPathExtension("out")
        errors = base.appendingPathExtension("err")
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #if os(Linux)
        // The child gets no other descriptor of this process: an inherited end of another
        // test's pipe, socket or Foundation `Process` socket pair would hold that test's wait for
        // end-of-file open as long as this child lives. (glibc 2.34's closefrom action, looked
        // up because Swift's Glibc module does not declare it.)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let library = dlopen(nil, RTLD_NOW), let symbol = dlsym(library, "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
        #endif
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable.path, &actions, nil, argv, environment)
        guard status == 0 else { throw ServerError("posix_spawn \(executable.path): \(String(cString: strerror(status)))") }
        pid = child
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the child to end (on a thread of its own, off the concurrency pool), killing
    /// it once it has run for `limit` seconds, so that a child that hangs fails its test (its
    /// exit status is then nil) instead of holding up the whole run.
    func wait(limit: Double = 60) async -> Outcome {
        await withCheckedContinuation { (done: CheckedContinuation<Outcome, Never>) in
            Thread.detachNewThread { [self] in
                var status: Int32 = 0
                var usage = rusage()
                var reaped = wait4(pid, &status, WNOHANG, &usage)
                while reaped == 0 || (reaped < 0 && errno == EINTR) {
                    if seconds(since: started) > limit { kill(pid, SIGKILL) }
                    usleep(10_000)
                    reaped = wait4(pid, &status, WNOHANG, &usage)
                }
                let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                    + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
                let read = { (url: URL) in (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
                let outcome = Outcome(
                    exitStatus: status & 0x7f == 0 ? (status >> 8) & 0xff : nil,
                    cpuSeconds: cpu, wallSeconds: seconds(since: started),
                    stdout: read(output), stderr: read(errors))
                try? FileManager.default.removeItem(at: output)
                try? FileManager.default.removeItem(at: errors)
                done.resume(returning: outcome)
            }
        }
    }
}

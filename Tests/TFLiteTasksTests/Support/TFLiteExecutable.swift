import Foundation
import Testing
import TestSupport

/// The `tflite` executable of this build, run as a real process by the CLI tests.
enum TFLiteExecutable {
    /// Where it is (`swift test` builds it beside the test bundle), or nil.
    static let url: URL? = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tflite"),
            Bundle.main.bundleURL.appendingPathComponent("tflite"),
            Fixtures.root.appendingPathComponent(".build/debug/tflite"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `tflite ARGS` (this build's, or another copy of it), killing it if it takes over a
    /// minute.
    ///
    /// A launch that fails is tried again, up to ten times 50 ms apart, then its error is
    /// thrown: a copy of the executable written just before (an installed copy) can still be
    /// open for writing in a child that a parallel test is forking at that moment, and exec
    /// then refuses it (ETXTBSY) for as long as that fork takes.
    static func run(_ arguments: [String], executable: URL? = nil, currentDirectory: URL? = nil) async throws -> Run {
        let executable: URL = try executable ?? #require(TFLiteExecutable.url)
        var attempt = 1
        while true {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            if let currentDirectory { process.currentDirectoryURL = currentDirectory }
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            let launchError = await waitForExit(process)
            if let launchError {
                guard attempt < 10 else { throw launchError }
                attempt += 1
                try await Task.sleep(nanoseconds: 50_000_000)
                continue
            }
            return Run(
                status: process.isRunning ? -1 : process.terminationStatus,
                stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                stderr: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
    }

    /// Launches `process` and waits for it to end; the launch's error, or nil once it ended.
    /// The watchdog ends the wait itself rather than trusting the termination handler to follow
    /// the kill: a test that hangs then fails instead of stopping the whole run.
    private static func waitForExit(_ process: Process) async -> (any Error)? {
        await withCheckedContinuation { (continuation: CheckedContinuation<(any Error)?, Never>) in
            let done = ResumeOnce(continuation)
            process.terminationHandler = { _ in done.resume(nil) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                return done.resume(error)
            }
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
                guard done.isWaiting else { return }
                kill(pid, SIGKILL)
                DispatchQueue.global().asyncAfter(deadline: .now() + 5) { done.resume(nil) }
            }
        }
    }
}

/// A continuation resumed by whichever of its resumers comes first.
private final class ResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<(any Error)?, Never>?

    init(_ continuation: CheckedContinuation<(any Error)?, Never>) {
        self.continuation = continuation
    }

    var isWaiting: Bool { lock.withLock { continuation != nil } }

    func resume(_ launchError: (any Error)?) {
        let waiting = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: launchError)
    }
}

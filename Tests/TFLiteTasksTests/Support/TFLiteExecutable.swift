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
    static func run(_ arguments: [String], executable: URL? = nil, currentDirectory: URL? = nil) async throws -> Run {
        let executable: URL = try executable ?? #require(TFLiteExecutable.url)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = ResumeOnce(continuation)
            process.terminationHandler = { _ in done.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                return done.resume()
            }
            // The watchdog ends the wait itself rather than trusting the termination handler to
            // follow the kill: a test that hangs then fails instead of stopping the whole run.
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
                guard done.isWaiting else { return }
                kill(pid, SIGKILL)
                DispatchQueue.global().asyncAfter(deadline: .now() + 5) { done.resume() }
            }
        }
        return Run(
            status: process.isRunning ? -1 : process.terminationStatus,
            stdout: String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            stderr: String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }
}

/// A continuation resumed by whichever of its resumers comes first.
private final class ResumeOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = continuation
    }

    var isWaiting: Bool { lock.withLock { continuation != nil } }

    func resume() {
        let waiting = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume()
    }
}

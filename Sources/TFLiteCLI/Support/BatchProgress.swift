import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteTasks

/// Drives a batch of `label` or `detect` from the synchronous command: prints each result as
/// it arrives, a progress line on a terminal, and the summary; fails (exit status 1, already
/// reported) when any image failed.
struct BatchProgress {
    let verb: String
    /// The images processed at once: as many as asked, else one per core; never more than
    /// there are images.
    let workers: Int
    /// How many images the batch has.
    let count: Int
    /// When the batch started, for the summary's rate.
    let started = DispatchTime.now()

    init(verb: String, requestedWorkers: Int?, count: Int) {
        self.verb = verb
        self.count = count
        workers = min(requestedWorkers ?? ProcessInfo.processInfo.activeProcessorCount, max(1, count))
    }

    /// Consumes `results`, handing each success to `printResult` (on one thread, in file order)
    /// and reporting each failure on stderr, plus a `{"file", "error"}` line with `json`.
    /// ``run(_:json:printResult:)`` for commands whose result per image is a
    /// list: one JSON line per image (`file`, `width`, `height`, and the list under `key`), or
    /// the command's table.
    func run<Element: Sendable>(_ results: AsyncStream<ImageBatchResult<[Element]>>, json: Bool, key: String, jsonObject: @escaping @Sendable (Element) -> [String: Any],
                                table: @escaping @Sendable ([Element], String) -> Void) throws {
        try run(results, json: json) { item, values in
            if json {
                print(try JSONOutput.string(["file": item.file.relativePath, "width": item.imageSize?.width ?? 0,
                                             "height": item.imageSize?.height ?? 0, key: values.map(jsonObject)]))
            } else {
                table(values, item.file.relativePath)
            }
        }
    }

    func run<Value: Sendable>(_ results: AsyncStream<ImageBatchResult<Value>>, json: Bool,
                              printResult: @escaping @Sendable (ImageBatchResult<Value>, Value) throws -> Void) throws {
        let showProgress = isatty(STDERR_FILENO) == 1
        let tally = Tally()
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            for await item in results {
                if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
                switch item.result {
                case .success(let value):
                    do { try printResult(item, value) } catch { tally.outputError = error }
                case .failure(let error):
                    tally.failed += 1
                    // The paths as the user gave them (the task reports absolute ones).
                    let file = item.file.relativePath
                    let message = error.description.replacingOccurrences(of: item.file.path, with: file)
                    printError("error: " + (message.contains(file) ? message : "\(file): \(message)"))
                    if json, let line = try? JSONOutput.string(["file": file, "error": message]) { print(line) }
                }
                tally.done += 1
                if showProgress {
                    FileHandle.standardError.write(Data("[\(tally.done)/\(count)] \(item.file.lastPathComponent)".utf8))
                }
            }
            if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            finished.signal()
        }
        finished.wait()
        if let error = tally.outputError { throw error }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        printError(String(format: "\(verb) %d of %d images (%d failed) in %.2f s: %.2f images/s, %d worker(s)",
                          tally.done - tally.failed, count, tally.failed, seconds, Double(tally.done) / seconds, workers))
        if tally.failed > 0 { throw AlreadyReported() }
    }
}

/// Counts kept by the consuming task; read after it has signalled.
private final class Tally: @unchecked Sendable {
    var done = 0
    var failed = 0
    var outputError: Error?
}

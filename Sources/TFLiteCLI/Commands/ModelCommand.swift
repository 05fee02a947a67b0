import Foundation
import TFLiteTasks
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `tflite model`: downloads remotely hosted models into the cache and finds, lists and
/// deletes them. The manifest format and cache layout are described in docs/remote-models.md.
struct ModelCommand: Command {
    static let name = "model"
    static let summary = "download, locate, list and delete remotely hosted models"
    static let help = """
        Usage:
          tflite model download NAME --url MANIFEST_URL [--cache-dir DIR] [--retries N]
                                [--timeout SECONDS] [--idle-timeout SECONDS]
          tflite model path NAME [--cache-dir DIR]
          tflite model list [--cache-dir DIR] [--json]
          tflite model delete NAME [--cache-dir DIR]

        download  Fetches the JSON manifest at MANIFEST_URL and, unless the cache already holds
                  its version, downloads the model, checks its size, SHA-256 and format, and
                  swaps it in. A failed, timed-out or interrupted (Ctrl-C) download keeps
                  the previous model and leaves no partial file. Prints progress on a
                  terminal, then the model's path.
        path      Prints the path of NAME's current good file; exit status 1 if there is none.
        list      Prints every cached model: name, version, size, download time, path;
                  with --json one array [{"name", "version", "bytes", "downloaded", "path"}].
        delete    Removes NAME from the cache; exit status 1 if it is not there.

        Options:
          --url MANIFEST_URL   http(s) URL of the model's manifest:
                               {"name", "version", "url", "sha256", "size"}
          --cache-dir DIR      cache folder (default: \(ModelManager.defaultCacheDirectory().path))
          --retries N          retries after a transient failure, 0...20 (default 3)
          --timeout SECONDS    deadline for the whole download: manifest, every attempt and
                               the waits between them (default \(defaultConditions.downloadTimeout.cliText));
                               past it the download fails with exit status 1
          --idle-timeout SECONDS
                               seconds without data before an attempt fails and is retried
                               (default \(defaultConditions.requestTimeout.cliText))

        Example:
          tflite model download flowers --url https://models.example/flowers.json
          tflite label --model "$(tflite model path flowers)" photo.jpg
        """

    static func run(_ arguments: inout Arguments) throws {
        let cacheDirectory = try arguments.option("--cache-dir")
            .map { URL(fileURLWithPath: $0, isDirectory: true) } ?? ModelManager.defaultCacheDirectory()
        let urlText = try arguments.option("--url")
        let retries = try arguments.intOption("--retries", in: 0...20)
        let timeout = try arguments.doubleOption("--timeout")
        let idleTimeout = try arguments.doubleOption("--idle-timeout")
        let json = arguments.flag("--json")
        let words = try arguments.positionals()
        guard let action = words.first else {
            throw UsageError("expected an action: download, path, list or delete")
        }
        let names = Array(words.dropFirst())
        if action != "download", urlText != nil || retries != nil || timeout != nil || idleTimeout != nil {
            throw UsageError("--url, --retries, --timeout and --idle-timeout apply to 'download' only")
        }
        if action != "list", json { throw UsageError("--json applies to 'list' only") }
        let manager = ModelManager(cacheDirectory: cacheDirectory)
        switch action {
        case "download":
            guard let urlText else { throw UsageError("download needs --url MANIFEST_URL") }
            var conditions = defaultConditions
            conditions.maxRetries = retries ?? conditions.maxRetries
            for (option, value) in [("--timeout", timeout), ("--idle-timeout", idleTimeout)] {
                guard let value else { continue }
                guard value > 0 else { throw UsageError("option \(option) needs a positive number of seconds") }
            }
            conditions.downloadTimeout = timeout ?? conditions.downloadTimeout
            conditions.requestTimeout = idleTimeout ?? conditions.requestTimeout
            let name = try modelName(names, action: action)
            guard let url = URL(string: urlText) else { throw UsageError("--url '\(urlText)' is not a URL") }
            let model: RemoteModel
            do {
                model = try RemoteModel(name: name, source: url)
            } catch {
                throw UsageError(error.description)
            }
            try download(model, conditions: conditions, manager: manager)
        case "path":
            let name = try modelName(names, action: action)
            guard let model = manager.downloadedModel(named: name) else {
                throw ModelDownloadError.notDownloaded(name)
            }
            print(model.path.path)
        case "list":
            guard names.isEmpty else { throw UsageError("list takes no arguments, got \(names.count)") }
            try list(manager, json: json)
        case "delete":
            let name = try modelName(names, action: action)
            try manager.deleteDownloadedModel(named: name)
            print("deleted \(name) from \(cacheDirectory.path)")
        default:
            throw UsageError("unknown action '\(action)'; expected download, path, list or delete")
        }
    }

    /// The library's defaults, which the options override and the help text quotes.
    private static let defaultConditions = ModelDownloadConditions()

    private static func download(_ model: RemoteModel, conditions: ModelDownloadConditions, manager: ModelManager) throws {
        let progress = manager.download(model, conditions: conditions)
        let interruptions = cancelOnInterrupt(progress)
        defer {
            interruptions.forEach { $0.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        let finished = DispatchSemaphore(value: 0)
        Task {
            _ = try? await progress.value
            finished.signal()
        }
        let showProgress = isatty(STDERR_FILENO) == 1
        if showProgress {
            // Redraws the progress line ten times a second; sleeps in the wait between.
            while finished.wait(timeout: .now() + 0.1) == .timedOut {
                report(progress)
            }
        } else {
            finished.wait()
        }
        if showProgress {
            report(progress)
            printError("")
        }
        switch progress.result {
        case .success(let done)?:
            let what = done.wasUpToDate ? "is up to date" : "downloaded"
            print("\(model.name) \(what): version \(done.model.version), \(done.model.size) bytes, \(done.model.path.path)")
        case .failure(let error)?:
            throw error
        case nil:
            throw ModelDownloadError.cancelled
        }
    }

    /// Ctrl-C and `kill` cancel the download instead of ending the process, so it removes its
    /// partial file and the command fails with `error: the download was cancelled`.
    private static func cancelOnInterrupt(_ progress: ModelDownloadProgress) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { progress.cancel() }
            source.resume()
            return source
        }
    }

    /// Rewrites the progress line on the terminal.
    private static func report(_ progress: ModelDownloadProgress) {
        let percent = Int(progress.fractionCompleted * 100)
        let line = "\r\(progress.model.name): \(percent)% (\(progress.completedBytes) of \(progress.totalBytes) bytes)"
        FileHandle.standardError.write(Data(line.utf8))
    }

    private static func list(_ manager: ModelManager, json: Bool) throws {
        let models = manager.downloadedModels()
        let formatter = ISO8601DateFormatter()
        if json {
            print(try JSONOutput.string(models.map {
                ["name": $0.name, "version": $0.version, "bytes": $0.size, "downloaded": formatter.string(from: $0.downloadedAt),
                 "path": $0.path.path] as [String: Any]
            }))
            return
        }
        guard !models.isEmpty else {
            print("no models in \(manager.cacheDirectory.path)")
            return
        }
        let rows = [["NAME", "VERSION", "BYTES", "DOWNLOADED", "PATH"]] + models.map {
            [$0.name, $0.version, String($0.size), formatter.string(from: $0.downloadedAt), $0.path.path]
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let padded = (0..<4).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            print((padded + [row[4]]).joined(separator: "  "))
        }
    }

    /// The single NAME argument after the action, checked as a cache name.
    private static func modelName(_ names: [String], action: String) throws -> String {
        guard names.count == 1, let name = names.first else {
            throw UsageError("\(action) expects one model NAME, got \(names.count) argument(s)")
        }
        guard RemoteModel.isValidName(name) else {
            throw UsageError(ModelDownloadError.invalidModelName(name).description)
        }
        return name
    }
}

extension TimeInterval {
    /// Seconds as the help text writes them: `30 s`, `0.5 s`.
    fileprivate var cliText: String { String(format: "%g s", self) }
}

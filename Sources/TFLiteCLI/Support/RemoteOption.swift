import Foundation
import TFLiteTasks

/// `--remote NAME --url MANIFEST_URL [--cache-dir D]` on `label` and `detect`: a remotely
/// hosted model with the command's local model as the fallback.
struct RemoteOption {
    let remote: RemoteModel
    let manager: ModelManager

    /// Reads the options; nil when `--remote` is absent.
    init?(_ arguments: inout Arguments) throws {
        let name = try arguments.option("--remote")
        let url = try arguments.option("--url")
        let cache = try arguments.option("--cache-dir")
        guard let name else {
            guard url == nil, cache == nil else { throw UsageError("--url and --cache-dir go with --remote NAME") }
            return nil
        }
        guard let url, let source = URL(string: url) else { throw UsageError("--remote needs --url MANIFEST_URL") }
        remote = try RemoteModel(name: name, source: source)
        manager = cache.map { ModelManager(cacheDirectory: URL(fileURLWithPath: $0)) } ?? .shared
    }

    /// Downloads or refreshes the remote model (a failure is reported, not fatal), then picks
    /// the downloaded model when the cache holds a valid one and `fallback` otherwise.
    func model(fallback: LocalModel) throws -> LocalModel {
        let done = DispatchSemaphore(value: 0)
        let progress = manager.download(remote, conditions: ModelDownloadConditions())
        let outcome = DownloadOutcome()
        Task {
            do { _ = try await progress.value } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error {
            printError("warning: could not download '\(remote.name)': \(error)")
        }
        let (model, resolved) = try LocalModel.resolving(remote: remote, fallback: fallback, manager: manager)
        switch resolved.origin {
        case .downloaded(let d): printError("using downloaded model '\(d.name)' version \(d.version)")
        case .fallback(let reason): printError("using the local model (\(reason))")
        }
        return model
    }
}

/// Carries a download's error from the task back to the waiting command.
private final class DownloadOutcome: @unchecked Sendable {
    var error: Error?
}

import Foundation

/// Which file to load for a model that has a remote source and a bundled fallback.
public struct ResolvedModel: Sendable, Hashable {
    /// Where the chosen file came from.
    public enum Origin: Sendable, Hashable {
        /// The downloaded file from the cache.
        case downloaded(DownloadedModel)
        /// The local fallback, because nothing usable was downloaded; `reason` says why.
        case fallback(reason: String)
    }

    /// The file to load.
    public let path: URL
    /// Where `path` came from.
    public let origin: Origin

    /// True when `path` is the downloaded model.
    public var isDownloaded: Bool {
        if case .downloaded = origin { return true }
        return false
    }
}

extension ModelManager {
    /// Picks the model file to load: the downloaded `remote` model when the cache holds one
    /// that still passes the validator, otherwise `fallback` (typically a model bundled with
    /// the app). Never downloads; start `download(_:conditions:)` separately to refresh.
    public func resolve(remote: RemoteModel, fallback: URL) -> ResolvedModel {
        guard let downloaded = downloadedModel(named: remote.name) else {
            return ResolvedModel(path: fallback, origin: .fallback(reason: "'\(remote.name)' is not downloaded"))
        }
        do {
            try validator(downloaded.path)
        } catch {
            return ResolvedModel(path: fallback, origin: .fallback(reason: "the downloaded '\(remote.name)' is not usable: \(error)"))
        }
        return ResolvedModel(path: downloaded.path, origin: .downloaded(downloaded))
    }
}

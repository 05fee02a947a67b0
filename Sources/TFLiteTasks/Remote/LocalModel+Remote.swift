import Foundation

extension LocalModel {
    /// The model to use for a remotely hosted model with a bundled fallback, in one call: the
    /// downloaded `remote` model when the cache holds a valid one, else `fallback` (ML Kit's
    /// `isModelDownloaded` pattern). Labels come from the downloaded model's metadata, or from
    /// the fallback when it has none. Never downloads; call `ModelManager.download` to refresh.
    ///
    /// - Returns: the model and how it was chosen (`resolved.origin`).
    public static func resolving(remote: RemoteModel, fallback: LocalModel,
                                 manager: ModelManager = .shared) throws(TaskError) -> (model: LocalModel, resolved: ResolvedModel) {
        let resolved = manager.resolve(remote: remote, fallback: URL(fileURLWithPath: fallback.modelPath))
        guard resolved.isDownloaded else { return (fallback, resolved) }
        let downloaded = try LocalModel(path: resolved.path.path)
        if downloaded.labels.isEmpty && !fallback.labels.isEmpty {
            return (LocalModel(modelPath: downloaded.modelPath, model: downloaded.model, metadata: downloaded.metadata,
                               labels: fallback.labels, kind: fallback.kind), resolved)
        }
        return (downloaded, resolved)
    }
}

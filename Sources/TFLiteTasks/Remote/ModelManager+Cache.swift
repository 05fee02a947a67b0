import Foundation

extension ModelManager {
    /// The cached model of that name, or nil when there is none or its record or file is
    /// missing or damaged.
    public func downloadedModel(named name: String) -> DownloadedModel? {
        guard (try? RemoteModel.checkName(name)) != nil else { return nil }
        let recordURL = recordFile(for: name)
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: recordURL.path),
              let recordSize = attributes[.size] as? Int, recordSize <= 64 * 1024,
              let data = try? Data(contentsOf: recordURL),
              let record = try? JSONDecoder().decode(CacheRecord.self, from: data),
              record.name == name,
              let model = record.downloadedModel(in: folder(for: name)),
              let fileAttributes = try? FileManager.default.attributesOfItem(atPath: model.path.path),
              fileAttributes[.type] as? FileAttributeType == .typeRegular,
              (fileAttributes[.size] as? NSNumber)?.int64Value == model.size
        else { return nil }
        return model
    }

    /// True when the cache holds a good file for `model`.
    public func isModelDownloaded(_ model: RemoteModel) -> Bool {
        downloadedModel(named: model.name) != nil
    }

    /// The path of the current good file for `model`, or nil when none was downloaded.
    public func latestModelFilePath(_ model: RemoteModel) -> URL? {
        downloadedModel(named: model.name)?.path
    }

    /// Every model in the cache, sorted by name.
    public func downloadedModels() -> [DownloadedModel] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory.path)) ?? []
        return names.sorted().compactMap { downloadedModel(named: $0) }
    }

    /// Removes `model`'s file and record from the cache.
    /// - Throws: `ModelDownloadError.notDownloaded` when there is none, `.cache` when the
    ///   files cannot be removed.
    public func deleteDownloadedModel(_ model: RemoteModel) throws(ModelDownloadError) {
        try deleteDownloadedModel(named: model.name)
    }

    /// Removes the cached model of that name (file and record).
    /// - Throws: `ModelDownloadError.notDownloaded` when there is none, `.cache` when the
    ///   files cannot be removed.
    public func deleteDownloadedModel(named name: String) throws(ModelDownloadError) {
        try RemoteModel.checkName(name)
        let folder = folder(for: name)
        guard FileManager.default.fileExists(atPath: folder.path) else { throw .notDownloaded(name) }
        try CacheLock.withLock(on: lockFile(for: name)) { () throws(ModelDownloadError) in
            guard FileManager.default.fileExists(atPath: recordFile(for: name).path) else {
                throw .notDownloaded(name)
            }
            // The record goes first: without it the folder holds no current model, whatever
            // happens to the files after.
            do {
                try FileManager.default.removeItem(at: recordFile(for: name))
            } catch {
                throw .cache(path: recordFile(for: name).path, reason: "cannot remove: \(error.localizedDescription)")
            }
            removeFiles(in: folder, keeping: nil)
        }
    }

    /// Removes model files other than `keeping`, and partial downloads abandoned for over an
    /// hour (a running download keeps touching its partial file). Called with the lock held.
    func removeFiles(in folder: URL, keeping: String?) {
        let manager = FileManager.default
        let staleBefore = Date().addingTimeInterval(-3600)
        for name in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let url = folder.appendingPathComponent(name)
            if name.hasSuffix(".tflite"), name != keeping {
                try? manager.removeItem(at: url)
            } else if name.hasPrefix(".partial-") || name.hasPrefix(".record-") {
                let modified = (try? manager.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
                if let modified, modified < staleBefore {
                    try? manager.removeItem(at: url)
                }
            }
        }
    }
}

import Foundation

extension ModelManager {
    /// Starts downloading `model` in the background and returns a handle on it.
    ///
    /// The manifest is fetched first; when the cache already holds its version nothing else
    /// is transferred. Otherwise the file is downloaded, verified and swapped in. The
    /// outcome is posted as `.modelDownloadDidSucceed` or `.modelDownloadDidFail`, and can be
    /// awaited with `ModelDownloadProgress.value`.
    ///
    /// `onChange`, when given, is called on the download's thread each time the expected size
    /// or the bytes received change, and once when the download has finished, so a progress display can follow without polling.
    @discardableResult
    public func download(
        _ model: RemoteModel, conditions: ModelDownloadConditions = ModelDownloadConditions(),
        onChange: (@Sendable (ModelDownloadProgress) -> Void)? = nil
    ) -> ModelDownloadProgress {
        let progress = ModelDownloadProgress(model: model, onChange: onChange)
        let task = Task {
            let result = await self.run(model, conditions: conditions, progress: progress)
            progress.finish(result)
        }
        progress.attach(task)
        return progress
    }

    /// Downloads `model` in the calling task (see `download(_:conditions:)`) and returns
    /// when the cache holds its current version. Cancelling the calling task cancels the
    /// download.
    /// - Throws: the `ModelDownloadError` that stopped the download; the cache then holds
    ///   what it held before.
    public func downloadModel(
        _ model: RemoteModel,
        conditions: ModelDownloadConditions = ModelDownloadConditions()
    ) async throws(ModelDownloadError) -> ModelDownloadResult {
        try await run(model, conditions: conditions, progress: ModelDownloadProgress(model: model)).get()
    }

    /// Runs one download and posts its notification.
    private func run(
        _ model: RemoteModel, conditions: ModelDownloadConditions, progress: ModelDownloadProgress
    ) async -> Result<ModelDownloadResult, ModelDownloadError> {
        let result: Result<ModelDownloadResult, ModelDownloadError>
        do throws(ModelDownloadError) {
            result = .success(try await perform(model, conditions: conditions, progress: progress))
        } catch {
            result = .failure(Task.isCancelled ? .cancelled : error)
        }
        switch result {
        case .success(let done):
            notificationCenter.post(name: .modelDownloadDidSucceed, object: self, userInfo: [
                ModelDownloadUserInfoKey.remoteModel.rawValue: model,
                ModelDownloadUserInfoKey.result.rawValue: done,
            ])
        case .failure(let error):
            notificationCenter.post(name: .modelDownloadDidFail, object: self, userInfo: [
                ModelDownloadUserInfoKey.remoteModel.rawValue: model,
                ModelDownloadUserInfoKey.error.rawValue: error,
            ])
        }
        return result
    }

    private func perform(
        _ model: RemoteModel, conditions: ModelDownloadConditions, progress: ModelDownloadProgress
    ) async throws(ModelDownloadError) -> ModelDownloadResult {
        let deadline = DownloadDeadline(seconds: conditions.downloadTimeout)
        let manifest = try await fetchManifest(of: model, conditions: conditions, deadline: deadline)
        guard manifest.name == model.name else {
            throw .manifestNameMismatch(expected: model.name, found: manifest.name)
        }
        guard manifest.size <= conditions.maximumModelSize else {
            throw .modelTooLarge(size: manifest.size, limit: conditions.maximumModelSize)
        }
        progress.setExpected(manifest.size)
        if let current = downloadedModel(named: model.name), current.matches(manifest) {
            return ModelDownloadResult(model: current, wasUpToDate: true)
        }
        let folder = try makeFolder(for: model.name)
        let partial = folder.appendingPathComponent(".partial-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: partial) }
        let sink = try ModelFileSink(creating: partial, manifest: manifest, progress: progress)
        try await withRetries(conditions, deadline: deadline) { () async throws(ModelDownloadError) in
            try await sink.transfer(conditions: conditions, deadline: deadline)
        }
        let digest = try sink.finish()
        guard digest == manifest.sha256 else {
            throw .checksumMismatch(url: manifest.modelURL, expected: manifest.sha256, actual: digest)
        }
        do {
            try validator(partial)
        } catch let error as ModelDownloadError {
            throw error
        } catch {
            throw .invalidModel(reason: "\(error)")
        }
        guard !Task.isCancelled else { throw .cancelled }
        return try commit(partial, manifest: manifest, source: model.source)
    }

    /// Fetches and parses the manifest, retrying transient failures.
    private func fetchManifest(
        of model: RemoteModel, conditions: ModelDownloadConditions, deadline: DownloadDeadline
    ) async throws(ModelDownloadError) -> ModelManifest {
        let url = model.source
        let limit = ModelManifest.maximumManifestBytes
        let buffer = try await withRetries(conditions, deadline: deadline) { () async throws(ModelDownloadError) -> ManifestBuffer in
            let buffer = ManifestBuffer(url: url)
            // Asked uncompressed like the model file; a gzip answer is decoded all the same.
            try await HTTPRequest.get(url, headers: ["Accept-Encoding": "identity"], conditions: conditions,
                                      deadline: deadline, decodedLimit: limit) { response throws(ModelDownloadError) in
                guard (200..<300).contains(response.statusCode) else { throw .httpStatus(response.statusCode, url: url) }
                // After redirects, relative model URLs resolve against where the manifest was found.
                buffer.url = response.url
            } onData: { data throws(ModelDownloadError) in
                guard buffer.data.count + data.count <= limit else {
                    throw .invalidManifest(url: url, reason: "larger than \(limit) bytes")
                }
                buffer.data.append(data)
            }
            return buffer
        }
        return try ModelManifest(decoding: buffer.data, from: buffer.url)
    }

    /// Runs `operation`, retrying transient failures with exponential backoff while the
    /// deadline leaves time for another attempt.
    private func withRetries<T>(
        _ conditions: ModelDownloadConditions, deadline: DownloadDeadline,
        _ operation: () async throws(ModelDownloadError) -> T
    ) async throws(ModelDownloadError) -> T {
        var retry = 0
        while true {
            do throws(ModelDownloadError) {
                return try await operation()
            } catch {
                guard error.isTransient, retry < conditions.maxRetries else { throw error }
                let delay = conditions.backoff(beforeRetry: retry)
                // Retries are left, so it is the deadline that ends the download: no attempt
                // could start before it.
                guard delay < deadline.remaining else {
                    throw error.retriedURL.map(deadline.exceeded(waitingFor:)) ?? error
                }
                retry += 1
                do {
                    try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
                } catch {
                    throw .cancelled
                }
            }
        }
    }

    private func makeFolder(for name: String) throws(ModelDownloadError) -> URL {
        let folder = folder(for: name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .cache(path: folder.path, reason: "cannot create the folder: \(error.localizedDescription)")
        }
        return folder
    }

    /// Moves a verified download into place and records it, under the folder's lock. When
    /// another manager or process committed the same version meanwhile, keeps theirs.
    private func commit(
        _ partial: URL, manifest: ModelManifest, source: URL
    ) throws(ModelDownloadError) -> ModelDownloadResult {
        let name = manifest.name
        let folder = folder(for: name)
        return try CacheLock.withLock(on: lockFile(for: name)) { () throws(ModelDownloadError) in
            if let current = downloadedModel(named: name), current.matches(manifest) {
                return ModelDownloadResult(model: current, wasUpToDate: true)
            }
            let fileName = CacheRecord.fileName(sha256: manifest.sha256)
            try rename(partial, to: folder.appendingPathComponent(fileName))
            let record = CacheRecord(
                name: name, version: manifest.version, sha256: manifest.sha256, size: manifest.size,
                file: fileName, manifestURL: source.absoluteString, modelURL: manifest.modelURL.absoluteString,
                downloadedAt: ISO8601DateFormatter().string(from: Date()))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let temporary = folder.appendingPathComponent(".record-\(UUID().uuidString)")
            do {
                try encoder.encode(record).write(to: temporary)
            } catch {
                try? FileManager.default.removeItem(at: temporary)
                throw .cache(path: temporary.path, reason: "cannot write the record: \(error.localizedDescription)")
            }
            try rename(temporary, to: recordFile(for: name))
            removeFiles(in: folder, keeping: fileName)
            guard let committed = downloadedModel(named: name) else {
                throw .cache(path: folder.path, reason: "the committed model cannot be read back")
            }
            return ModelDownloadResult(model: committed, wasUpToDate: false)
        }
    }

    /// rename(2): atomically replaces `destination`.
    private func rename(_ source: URL, to destination: URL) throws(ModelDownloadError) {
        guard Foundation.rename(source.path, destination.path) == 0 else {
            throw .cache(path: destination.path, reason: "cannot rename \(source.lastPathComponent) into place: \(String(cString: strerror(errno)))")
        }
    }
}

extension DownloadedModel {
    /// True when this file is the one `manifest` describes.
    func matches(_ manifest: ModelManifest) -> Bool {
        version == manifest.version && sha256 == manifest.sha256 && size == manifest.size
    }
}

/// Collects a manifest body and its final URL; written on the request's delegate queue,
/// read after the request ends.
private final class ManifestBuffer: @unchecked Sendable {
    var data = Data()
    var url: URL

    init(url: URL) {
        self.url = url
    }
}

extension ModelDownloadError {
    /// The URL a transient failure came from, which a retry asks again.
    fileprivate var retriedURL: URL? {
        switch self {
        case .httpStatus(_, let url), .transport(let url, _): url
        default: nil
        }
    }
}

import Foundation

/// The partial file a model downloads into: writes and hashes the body as it arrives,
/// refuses more bytes than the manifest announced, and resumes a broken transfer with a
/// `Range` request when the server supports it (restarting from zero when it does not).
///
/// Used by one request at a time: its state changes on that request's delegate queue and is
/// read by the downloading task only between requests.
final class ModelFileSink: @unchecked Sendable {
    private let path: URL
    private let manifest: ModelManifest
    private let progress: ModelDownloadProgress
    private let handle: FileHandle
    private var hasher = SHA256()
    private var written: Int64 = 0
    /// False once a body arrived content-coded: byte ranges would then count encoded bytes,
    /// so a broken transfer restarts from zero instead of resuming.
    private var resumable = true

    init(creating path: URL, manifest: ModelManifest, progress: ModelDownloadProgress) throws(ModelDownloadError) {
        guard FileManager.default.createFile(atPath: path.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: path)
        else {
            throw .cache(path: path.path, reason: "cannot create the download file")
        }
        self.path = path
        self.manifest = manifest
        self.progress = progress
        self.handle = handle
    }

    deinit {
        try? handle.close()
    }

    /// One attempt: requests the rest of the file and appends it.
    func transfer(conditions: ModelDownloadConditions, deadline: DownloadDeadline) async throws(ModelDownloadError) {
        let url = manifest.modelURL
        if written > 0, !resumable { try reset() }
        // Byte ranges refer to the stored bytes, so no content coding.
        var headers = ["Accept-Encoding": "identity"]
        if written > 0 {
            headers["Range"] = "bytes=\(written)-"
        }
        try await HTTPRequest.get(url, headers: headers, conditions: conditions, deadline: deadline,
                                  decodedLimit: Int(clamping: manifest.size)) { response throws(ModelDownloadError) in
            try self.begin(response)
        } onData: { data throws(ModelDownloadError) in
            try self.append(data)
        }
        guard written == manifest.size else {
            throw .sizeMismatch(url: url, expected: manifest.size, received: written)
        }
    }

    /// Flushes the file to disk and returns the SHA-256 of what was received.
    func finish() throws(ModelDownloadError) -> String {
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw .cache(path: path.path, reason: "cannot write the download: \(error.localizedDescription)")
        }
        return hasher.finalizeHex()
    }

    private func begin(_ response: HTTPResponseHead) throws(ModelDownloadError) {
        let url = manifest.modelURL
        switch response.statusCode {
        case 206:
            guard response.contentCoding == .identity,
                  let start = ModelFileSink.rangeStart(response.header("Content-Range")),
                  start == written
            else {
                // Not the range asked for: start over on the next attempt.
                try reset()
                throw .transport(url: url, message: "the server resumed at an unexpected offset")
            }
        case 200..<300:
            // A full body (the server ignored or was not sent a Range): start from zero.
            if written > 0 { try reset() }
        default:
            throw .httpStatus(response.statusCode, url: url)
        }
        resumable = response.contentCoding == .identity
        // Only an uncoded body's Content-Length counts model bytes (a gzip one counts
        // compressed bytes); a coded body is checked once decoded.
        if let announced = response.decodedLength, written + announced != manifest.size {
            throw .sizeMismatch(url: url, expected: manifest.size, received: written + announced)
        }
    }

    private func append(_ data: Data) throws(ModelDownloadError) {
        guard Int64(data.count) <= manifest.size - written else {
            throw .sizeMismatch(url: manifest.modelURL, expected: manifest.size, received: written + Int64(data.count))
        }
        do {
            try handle.write(contentsOf: data)
        } catch {
            throw .cache(path: path.path, reason: "cannot write the download: \(error.localizedDescription)")
        }
        data.withUnsafeBytes { hasher.update($0) }
        written += Int64(data.count)
        progress.setReceived(written)
    }

    private func reset() throws(ModelDownloadError) {
        do {
            try handle.truncate(atOffset: 0)
        } catch {
            throw .cache(path: path.path, reason: "cannot truncate the download: \(error.localizedDescription)")
        }
        hasher = SHA256()
        written = 0
        progress.setReceived(0)
    }

    /// The first byte position of a `Content-Range: bytes START-END/TOTAL` header.
    static func rangeStart(_ header: String?) -> Int64? {
        guard let header, header.hasPrefix("bytes ") else { return nil }
        let spec = header.dropFirst("bytes ".count)
        guard let dash = spec.firstIndex(of: "-") else { return nil }
        return Int64(spec[..<dash])
    }
}

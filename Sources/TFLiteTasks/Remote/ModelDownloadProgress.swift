import Foundation

/// What a finished download did.
public struct ModelDownloadResult: Sendable, Hashable {
    /// The model now current in the cache.
    public let model: DownloadedModel
    /// True when no file was transferred because the cache already held this version
    /// (possibly committed meanwhile by another process).
    public let wasUpToDate: Bool
}

/// A handle on a running download, returned by `ModelManager.download(_:conditions:)`:
/// bytes received so far, the expected total, and the outcome once finished.
///
/// Safe to read from any thread.
public final class ModelDownloadProgress: @unchecked Sendable {
    /// The model being downloaded.
    public let model: RemoteModel

    private let lock = NSLock()
    private var received: Int64 = 0
    private var expected: Int64 = 0
    private var outcome: Result<ModelDownloadResult, ModelDownloadError>?
    private var waiters: [CheckedContinuation<Result<ModelDownloadResult, ModelDownloadError>, Never>] = []
    private var task: Task<Void, Never>?
    private let onChange: (@Sendable (ModelDownloadProgress) -> Void)?

    init(model: RemoteModel, onChange: (@Sendable (ModelDownloadProgress) -> Void)? = nil) {
        self.model = model
        self.onChange = onChange
    }

    /// Bytes of the model file received so far, kept across resumed attempts (back to 0 when
    /// a transfer has to restart from the first byte).
    public var completedBytes: Int64 { lock.withLock { received } }

    /// The model file's size from the manifest; 0 until the manifest has been read.
    public var totalBytes: Int64 { lock.withLock { expected } }

    /// `completedBytes / totalBytes` in 0...1; 1 once the download succeeded.
    public var fractionCompleted: Double {
        lock.withLock {
            if case .success = outcome { return 1 }
            guard expected > 0 else { return 0 }
            return min(1, Double(received) / Double(expected))
        }
    }

    /// True once the download succeeded or failed.
    public var isFinished: Bool { lock.withLock { outcome != nil } }

    /// The outcome, or nil while running.
    public var result: Result<ModelDownloadResult, ModelDownloadError>? { lock.withLock { outcome } }

    /// Waits for the download to finish and returns its result.
    /// - Throws: the `ModelDownloadError` the download failed with.
    public var value: ModelDownloadResult {
        get async throws {
            let finished = await withCheckedContinuation { continuation in
                lock.withLock {
                    if let outcome {
                        continuation.resume(returning: outcome)
                    } else {
                        waiters.append(continuation)
                    }
                }
            }
            return try finished.get()
        }
    }

    /// Stops the download; it then fails with `ModelDownloadError.cancelled` and the cache is
    /// left as it was.
    public func cancel() {
        lock.withLock { task }?.cancel()
    }

    func attach(_ task: Task<Void, Never>) {
        lock.withLock { self.task = task }
    }

    func setExpected(_ bytes: Int64) {
        lock.withLock { expected = bytes }
        onChange?(self)
    }

    func setReceived(_ bytes: Int64) {
        lock.withLock { received = bytes }
        onChange?(self)
    }

    func finish(_ result: Result<ModelDownloadResult, ModelDownloadError>) {
        let waiting = lock.withLock {
            outcome = result
            if case .success(let done) = result { received = done.model.size }
            defer { waiters = [] }
            return waiters
        }
        onChange?(self)
        for waiter in waiting {
            waiter.resume(returning: result)
        }
    }
}

import Foundation

/// When and how patiently a `ModelManager` downloads a model.
public struct ModelDownloadConditions: Sendable, Hashable {
    /// Whether the download may use a cellular connection (honoured where URLSession knows
    /// the interface type, i.e. on Apple platforms).
    public var allowsCellularAccess: Bool
    /// Whether the download may keep its connection alive while an app is in the background
    /// (Apple platforms; a Linux process has no background state, so it has no effect there).
    public var allowsBackgroundDownloading: Bool
    /// Seconds a request may stay idle (no bytes received) before it fails as transient.
    public var requestTimeout: TimeInterval
    /// Seconds one attempt at a file may take in total before it fails as transient.
    public var resourceTimeout: TimeInterval
    /// Seconds the whole download may take: the manifest, every attempt and the waits between
    /// them. Past it the download fails with `ModelDownloadError.deadlineExceeded`, however
    /// slowly data is still arriving (idle timeouts alone never end a trickle).
    public var downloadTimeout: TimeInterval
    /// How many times a transient failure is retried (0 means a single attempt).
    public var maxRetries: Int
    /// The wait before the first retry; each further retry waits twice as long.
    public var initialBackoff: TimeInterval
    /// The longest wait between two attempts.
    public var maximumBackoff: TimeInterval
    /// The largest model accepted; a manifest announcing more is refused before any download.
    public var maximumModelSize: Int64
    /// Which HTTP client carries the requests; tests pin URLSession to cover both paths.
    var transport: HTTPTransport = .automatic

    /// Creates download conditions. The defaults suit a model of up to about 100 MB on a
    /// normal network; raise `downloadTimeout` for larger models or slow links.
    public init(
        allowsCellularAccess: Bool = true,
        allowsBackgroundDownloading: Bool = false,
        requestTimeout: TimeInterval = 30,
        resourceTimeout: TimeInterval = 3600,
        downloadTimeout: TimeInterval = 600,
        maxRetries: Int = 3,
        initialBackoff: TimeInterval = 0.5,
        maximumBackoff: TimeInterval = 30,
        maximumModelSize: Int64 = 1 << 30
    ) {
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsBackgroundDownloading = allowsBackgroundDownloading
        self.requestTimeout = requestTimeout
        self.resourceTimeout = resourceTimeout
        self.downloadTimeout = downloadTimeout
        self.maxRetries = maxRetries
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
        self.maximumModelSize = maximumModelSize
    }

    /// The wait before retry number `retry` (0-based): exponential, capped at `maximumBackoff`.
    func backoff(beforeRetry retry: Int) -> TimeInterval {
        let factor = Double(1 << min(max(retry, 0), 30))
        return min(max(initialBackoff, 0) * factor, max(maximumBackoff, 0))
    }
}

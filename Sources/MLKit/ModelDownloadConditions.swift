/// When a model may be downloaded (ML Kit's `ModelDownloadConditions`).
public final class ModelDownloadConditions: @unchecked Sendable {
    /// Whether the download may use a cellular connection (honoured where URLSession knows
    /// the interface type, i.e. on Apple platforms).
    public let allowsCellularAccess: Bool
    /// Whether the download may go on while an app is in the background (Apple platforms;
    /// a Linux process has no background state).
    public let allowsBackgroundDownloading: Bool

    public init(allowsCellularAccess: Bool = true, allowsBackgroundDownloading: Bool = false) {
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsBackgroundDownloading = allowsBackgroundDownloading
    }
}

import Foundation

extension Notification.Name {
    /// Posted by a `ModelManager` when a download finished and the model in the cache is
    /// current (newly downloaded or already up to date). The notification's object is the
    /// manager; `userInfo` holds the `RemoteModel` and the `ModelDownloadResult`.
    public static let modelDownloadDidSucceed = Notification.Name("TFLiteTasks.modelDownloadDidSucceed")
    /// Posted by a `ModelManager` when a download failed; the previous model, if any, is still
    /// in place. The notification's object is the manager; `userInfo` holds the `RemoteModel`
    /// and the `ModelDownloadError`.
    public static let modelDownloadDidFail = Notification.Name("TFLiteTasks.modelDownloadDidFail")
}

/// Keys of the `userInfo` dictionary of model download notifications (use `rawValue`).
public enum ModelDownloadUserInfoKey: String, Sendable {
    /// The `RemoteModel` the notification is about.
    case remoteModel
    /// The `ModelDownloadError` of a failed download.
    case error
    /// The `ModelDownloadResult` of a successful download.
    case result
}

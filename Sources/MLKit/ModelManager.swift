import Dispatch
import Foundation
internal import TFLiteTasks

extension Notification.Name {
    /// Posted on `NotificationCenter.default` when a ``ModelManager`` download finished and the
    /// model is ready; `userInfo[ModelDownloadUserInfoKey.remoteModel.rawValue]` is the
    /// ``RemoteModel``.
    public static let mlkitModelDownloadDidSucceed = Notification.Name("MLKit.modelDownloadDidSucceed")
    /// Posted on `NotificationCenter.default` when a ``ModelManager`` download failed; `userInfo`
    /// holds the ``RemoteModel`` and, under `ModelDownloadUserInfoKey.error.rawValue`, an
    /// `NSError` saying why. A model downloaded before stays in place.
    public static let mlkitModelDownloadDidFail = Notification.Name("MLKit.modelDownloadDidFail")
}

/// Keys of the `userInfo` of the download notifications (ML Kit's `ModelDownloadUserInfoKey`).
public struct ModelDownloadUserInfoKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The ``RemoteModel`` the notification is about.
    public static let remoteModel = ModelDownloadUserInfoKey(rawValue: "MLKitRemoteModel")
    /// The `NSError` of a failed download.
    public static let error = ModelDownloadUserInfoKey(rawValue: "MLKitError")
}

/// Downloads remote models and keeps them in a local cache (ML Kit's `ModelManager`), with
/// this package's downloader: a manifest names the file's version, size and SHA-256; a file
/// is verified and loaded before it replaces the cached one; transient failures are retried.
///
/// ```swift
/// let progress = ModelManager.modelManager().download(remoteModel, conditions: conditions)
/// ```
public final class ModelManager: @unchecked Sendable {
    private static let shared = ModelManager(manager: .shared)

    /// The manager over the default cache (`~/Library/Caches/swift-tflite/models` on Apple
    /// platforms, `$XDG_CACHE_HOME/swift-tflite/models` or `~/.cache/swift-tflite/models`
    /// elsewhere).
    public static func modelManager() -> ModelManager { shared }

    private let manager: TFLiteTasks.ModelManager

    /// A manager over its own cache folder (ML Kit has only the shared one; a server or a
    /// test may want another).
    public convenience init(cacheDirectory: URL) {
        // Its own notification centre: this manager posts ML Kit's notifications itself,
        // with ML Kit's user info.
        self.init(manager: TFLiteTasks.ModelManager(cacheDirectory: cacheDirectory, notificationCenter: NotificationCenter()))
    }

    private init(manager: TFLiteTasks.ModelManager) {
        self.manager = manager
    }

    /// The folder holding the downloaded models.
    public var cacheDirectory: URL { manager.cacheDirectory }

    /// Starts downloading `remoteModel` and returns its progress: `totalUnitCount` is the
    /// file's size in bytes once the manifest is read, `completedUnitCount` the bytes received
    /// (both KVO-observable); it completes when the model is ready. The outcome is posted as
    /// `.mlkitModelDownloadDidSucceed` or `.mlkitModelDownloadDidFail`. When the cache already
    /// holds the published version nothing more is transferred.
    public func download(_ remoteModel: RemoteModel, conditions: ModelDownloadConditions) -> Progress {
        let progress = Progress(totalUnitCount: -1)
        let model: TFLiteTasks.RemoteModel
        do {
            model = try remoteModel.taskModel()
        } catch {
            progress.cancel()
            post(.mlkitModelDownloadDidFail, remoteModel, error: error)
            return progress
        }
        var settings = TFLiteTasks.ModelDownloadConditions()
        settings.allowsCellularAccess = conditions.allowsCellularAccess
        settings.allowsBackgroundDownloading = conditions.allowsBackgroundDownloading
        let running = manager.download(model, conditions: settings) { state in
            let total = state.totalBytes
            if total > 0, progress.totalUnitCount != total { progress.totalUnitCount = total }
            if progress.completedUnitCount != state.completedBytes { progress.completedUnitCount = state.completedBytes }
        }
        progress.cancellationHandler = { running.cancel() }
        Task {
            do {
                let done = try await running.value
                // Up to date already: nothing arrived, the progress still ends complete.
                progress.totalUnitCount = done.model.size
                progress.completedUnitCount = done.model.size
                self.post(.mlkitModelDownloadDidSucceed, remoteModel, error: nil)
            } catch {
                self.post(.mlkitModelDownloadDidFail, remoteModel, error: VisionError.failed(error, code: .internalError))
            }
        }
        return progress
    }

    /// Whether the cache holds a verified file for `remoteModel`.
    public func isModelDownloaded(_ remoteModel: RemoteModel) -> Bool {
        guard let model = try? remoteModel.taskModel() else { return false }
        return manager.isModelDownloaded(model)
    }

    /// Calls `completion` on the main queue with the path of the downloaded file, or an error
    /// when there is none.
    public func getLatestModelFilePath(_ remoteModel: RemoteModel, completion: @escaping (String?, (any Error)?) -> Void) {
        nonisolated(unsafe) let completion = completion
        let outcome = Result { () throws(NSError) -> String in try self.latestPath(remoteModel) }
        DispatchQueue.main.async {
            switch outcome {
            case .success(let path): completion(path, nil)
            case .failure(let error): completion(nil, error)
            }
        }
    }

    /// Removes the downloaded file of `remoteModel`, then calls `completion` on the main queue
    /// with nil, or the error when nothing was downloaded or the files cannot be removed.
    public func deleteDownloadedModel(_ remoteModel: RemoteModel, completion: @escaping ((any Error)?) -> Void) {
        nonisolated(unsafe) let completion = completion
        var failure: NSError?
        do {
            try manager.deleteDownloadedModel(try remoteModel.taskModel())
        } catch let error as NSError where error.domain == VisionError.domain {
            failure = error
        } catch {
            failure = VisionError.failed(error)
        }
        let reported = failure
        DispatchQueue.main.async { completion(reported) }
    }

    /// The downloaded file of `remoteModel`.
    func latestPath(_ remoteModel: RemoteModel) throws(NSError) -> String {
        let model = try remoteModel.taskModel()
        guard let path = manager.latestModelFilePath(model) else {
            throw VisionError.failed("remote model '\(model.name)' is not downloaded: download it with ModelManager.download(_:conditions:)")
        }
        return path.path
    }

    private func post(_ name: Notification.Name, _ remoteModel: RemoteModel, error: NSError?) {
        var userInfo: [String: Any] = [ModelDownloadUserInfoKey.remoteModel.rawValue: remoteModel]
        if let error { userInfo[ModelDownloadUserInfoKey.error.rawValue] = error }
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }
}

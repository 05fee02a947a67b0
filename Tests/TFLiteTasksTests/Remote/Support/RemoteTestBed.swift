import Foundation
@testable import TFLiteTasks

/// A loopback server, a fresh cache directory, a manager on it with its own notification
/// center, and a recorder of that center's download notifications. Cleans up when released.
final class RemoteTestBed: @unchecked Sendable {
    let server: LoopbackHTTPServer
    let cache: URL
    let center = NotificationCenter()
    let manager: ModelManager
    let model: RemoteModel
    let recorder: NotificationRecorder

    /// Retries and timeouts small enough to keep fault tests short.
    static let quick = ModelDownloadConditions(
        requestTimeout: 1, resourceTimeout: 20, maxRetries: 2, initialBackoff: 0.01, maximumBackoff: 0.05)

    init(name: String = "flowers", validator: @escaping ModelFileValidator = ModelManager.modelLoaderValidator) throws {
        server = try LoopbackHTTPServer()
        cache = FileManager.default.temporaryDirectory
            .appendingPathComponent("remote-model-tests-\(UUID().uuidString)", isDirectory: true)
        manager = ModelManager(cacheDirectory: cache, validator: validator, notificationCenter: center)
        model = try RemoteModel(name: name, source: server.url("/manifests/\(name).json"))
        recorder = NotificationRecorder(center: center, manager: manager)
    }

    deinit {
        server.stop()
        try? FileManager.default.removeItem(at: cache)
    }

    /// The manifest's path on the server.
    var manifestPath: String { model.source.path }

    /// A manifest document; `url` is written as given (relative or absolute).
    static func manifest(name: String, version: String, url: String, sha256: String, size: Int) -> [UInt8] {
        Array("""
            {"name": "\(name)", "version": "\(version)", "url": "\(url)", "sha256": "\(sha256)", "size": \(size), "notes": "ignored"}
            """.utf8)
    }

    /// Publishes `payload` as `version`: the manifest points (relatively) at
    /// `/manifests/<name>-<version>.tflite`, served with `replies` (the payload by default).
    /// Returns the file's path on the server.
    @discardableResult
    func publish(
        version: String, payload: CorpusModel, sha256: String? = nil, size: Int? = nil,
        replies: [LoopbackHTTPServer.Reply]? = nil
    ) throws -> String {
        let file = "\(model.name)-\(version).tflite"
        server.route(manifestPath, .body(RemoteTestBed.manifest(
            name: model.name, version: version, url: file, sha256: sha256 ?? payload.sha256, size: size ?? payload.size)))
        let path = "/manifests/\(file)"
        server.route(path, try replies ?? [.body(payload.bytes())])
        return path
    }

    /// The names in the model's cache folder, sorted.
    func folderContents() -> [String] {
        let folder = cache.appendingPathComponent(model.name)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}

/// Records `.modelDownloadDidSucceed` and `.modelDownloadDidFail` posted by one manager.
final class NotificationRecorder: @unchecked Sendable {
    /// One notification.
    struct Event {
        var succeeded: Bool
        var model: RemoteModel?
        var error: ModelDownloadError?
        var result: ModelDownloadResult?
    }

    private let lock = NSLock()
    private var recorded: [Event] = []
    private let center: NotificationCenter
    private var observers: [any NSObjectProtocol] = []

    init(center: NotificationCenter, manager: ModelManager) {
        self.center = center
        for (name, succeeded) in [(Notification.Name.modelDownloadDidSucceed, true), (.modelDownloadDidFail, false)] {
            observers.append(center.addObserver(forName: name, object: manager, queue: nil) { [weak self] note in
                let info = note.userInfo ?? [:]
                let event = Event(
                    succeeded: succeeded,
                    model: info[ModelDownloadUserInfoKey.remoteModel.rawValue] as? RemoteModel,
                    error: info[ModelDownloadUserInfoKey.error.rawValue] as? ModelDownloadError,
                    result: info[ModelDownloadUserInfoKey.result.rawValue] as? ModelDownloadResult)
                self?.lock.withLock { self?.recorded.append(event) }
            })
        }
    }

    deinit {
        observers.forEach(center.removeObserver)
    }

    /// Everything recorded so far, in posting order.
    var events: [Event] { lock.withLock { recorded } }
}

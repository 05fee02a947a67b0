import Foundation
import Testing
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

    /// Every HTTP client a download can go through (both are URLSession on Apple platforms).
    static let transports: [HTTPTransport] = [.automatic, .urlSession]

    /// True where `.automatic` fetches `http` URLs with the package's own socket client.
    static let socketClientIsUsed: Bool = {
        #if canImport(Glibc)
        return true
        #else
        return false
        #endif
    }()

    /// `conditions` sent through `transport`.
    static func over(_ transport: HTTPTransport, _ conditions: ModelDownloadConditions = quick) -> ModelDownloadConditions {
        var pinned = conditions
        pinned.transport = transport
        return pinned
    }

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

    /// Publishes and downloads version 1 (`CorpusModel.small()`): the model a failed upgrade
    /// must leave in place. Returns it and its bytes.
    func downloadGoodModel() async throws -> (model: DownloadedModel, bytes: [UInt8]) {
        let good = try CorpusModel.small()
        try publish(version: "1", payload: good)
        let result = try await manager.downloadModel(model, conditions: RemoteTestBed.quick)
        return (result.model, try good.bytes())
    }

    /// Expects the cache to hold exactly `previous`: still current, its file intact, and
    /// nothing else in the folder (no partial download, no temporary record).
    func expectCacheHolds(_ previous: DownloadedModel, bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(manager.downloadedModel(named: model.name) == previous, sourceLocation: sourceLocation)
        #expect((try? [UInt8](Data(contentsOf: previous.path))) == bytes, sourceLocation: sourceLocation)
        #expect(folderContents() == [".lock", previous.path.lastPathComponent, "record.json"], sourceLocation: sourceLocation)
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

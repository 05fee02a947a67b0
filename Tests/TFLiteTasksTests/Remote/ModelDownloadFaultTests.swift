import Foundation
import Testing
@testable import TFLiteTasks
import TestSupport

/// A fault injected into the upgrade from version 1 to version 2 of a model.
enum DownloadFault: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case manifest404, manifest500, malformedManifest, hugeManifest, manifestForAnotherModel, modelTooLarge
    case fileURLInManifest, redirectToFile
    case model404, model500, notHTTP, connectionDroppedMidBody, stalledBody
    case wrongSHA256, truncatedFile, bodyLongerThanAnnounced, notAModel, rejectedByValidator

    var testDescription: String { rawValue }
}

/// Each fault must fail the download with the right error and a failure notification, and
/// leave version 1 in the cache, still loadable.
@Suite struct ModelDownloadFaultTests {
    /// Validator used by every bed here: the default checks, then a rejection of the file
    /// whose bytes are `rejected` (standing in for a full model loader behind the same seam).
    static func validator(rejecting rejected: [UInt8]?) -> ModelFileValidator {
        { url in
            try ModelManager.modelLoaderValidator(url)
            if let rejected, try [UInt8](Data(contentsOf: url)) == rejected {
                throw LoaderRejection()
            }
        }
    }

    struct LoaderRejection: Error, CustomStringConvertible {
        var description: String { "the loader refused this model" }
    }

    @Test(arguments: DownloadFault.allCases, RemoteTestBed.transports)
    func faultKeepsThePreviousModel(_ fault: DownloadFault, _ transport: HTTPTransport) async throws {
        let good = try CorpusModel.small()
        let upgrade = try CorpusModel.upgrade()
        let upgradeBytes = try upgrade.bytes()
        let bed = try RemoteTestBed(validator: Self.validator(rejecting: fault == .rejectedByValidator ? upgradeBytes : nil))
        try bed.publish(version: "1", payload: good)
        let before = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)

        let file = try inject(fault, into: bed, upgrade: upgrade)
        let conditions = RemoteTestBed.over(transport)
        let thrown = await #expect(throws: ModelDownloadError.self) {
            try await bed.manager.downloadModel(bed.model, conditions: conditions)
        }
        let error = try #require(thrown)
        #expect(expected(fault, error, bed: bed, upgrade: upgrade), "\(fault): got \(error)")

        // Requests: retried only when transient, never past the first failing step.
        let attempts = 1 + (error.isTransient ? conditions.maxRetries : 0)
        let manifestRequests = bed.server.requests(to: bed.manifestPath).count - 1
        let fileRequests = bed.server.requests(to: file).count
        switch fault {
        case .manifest404, .manifest500, .malformedManifest, .hugeManifest, .manifestForAnotherModel, .modelTooLarge,
             .fileURLInManifest:
            #expect(manifestRequests == attempts)
            #expect(fileRequests == 0)
        default:
            #expect(manifestRequests == 1)
            #expect(fileRequests == attempts)
        }

        // The failure was announced, about this model, with this error.
        let events = bed.recorder.events
        #expect(events.count == 2)
        #expect(events.last?.succeeded == false)
        #expect(events.last?.model == bed.model)
        #expect(events.last?.error == error)

        // Version 1 is still the current, intact, loadable model, and nothing else is left.
        let current = try #require(bed.manager.downloadedModel(named: bed.model.name))
        #expect(current == before.model)
        #expect(bed.manager.latestModelFilePath(bed.model) == before.model.path)
        #expect(try [UInt8](Data(contentsOf: before.model.path)) == good.bytes())
        try ModelManager.modelLoaderValidator(before.model.path)
        #expect(bed.folderContents() == [".lock", good.sha256 + ".tflite", "record.json"])
    }

    /// Sets up the server for `fault` and returns the model file's path on the server.
    private func inject(_ fault: DownloadFault, into bed: RemoteTestBed, upgrade: CorpusModel) throws -> String {
        let bytes = try upgrade.bytes()
        let manifest = bed.manifestPath
        let file = "/manifests/\(bed.model.name)-2.tflite"
        switch fault {
        case .manifest404:
            bed.server.route(manifest, .status(404))
        case .manifest500:
            bed.server.route(manifest, .status(500))
        case .malformedManifest:
            bed.server.route(manifest, .body(Array("{\"name\": \"flowers\", \"version\": 2".utf8)))
        case .hugeManifest:
            var huge = RemoteTestBed.manifest(
                name: "flowers", version: "2", url: "flowers-2.tflite", sha256: upgrade.sha256, size: upgrade.size)
            huge.insert(contentsOf: Array("\"pad\": \"\(String(repeating: "x", count: 70_000))\", ".utf8), at: 1)
            bed.server.route(manifest, .body(huge))
        case .manifestForAnotherModel:
            bed.server.route(manifest, .body(RemoteTestBed.manifest(
                name: "tulips", version: "2", url: "flowers-2.tflite", sha256: upgrade.sha256, size: upgrade.size)))
        case .modelTooLarge:
            bed.server.route(manifest, .body(RemoteTestBed.manifest(
                name: "flowers", version: "2", url: "flowers-2.tflite", sha256: upgrade.sha256, size: 1 << 40)))
        case .fileURLInManifest:
            bed.server.route(manifest, .body(RemoteTestBed.manifest(
                name: "flowers", version: "2", url: "file:///etc/hostname", sha256: upgrade.sha256, size: upgrade.size)))
        case .redirectToFile:
            try bed.publish(version: "2", payload: upgrade, replies: [.redirect("file:///etc/hostname")])
        case .model404:
            try bed.publish(version: "2", payload: upgrade, replies: [.status(404)])
        case .model500:
            try bed.publish(version: "2", payload: upgrade, replies: [.status(500)])
        case .notHTTP:
            try bed.publish(version: "2", payload: upgrade, replies: [.raw(Array("SSH-2.0-OpenSSH_9.6\r\n".utf8) + bytes)])
        case .connectionDroppedMidBody:
            try bed.publish(version: "2", payload: upgrade, replies: [.dropAfter(bytes, bytes: bytes.count / 2)])
        case .stalledBody:
            try bed.publish(version: "2", payload: upgrade, replies: [.stall(bytes, bytes: 100, seconds: 3)])
        case .wrongSHA256:
            try bed.publish(version: "2", payload: upgrade, sha256: String(repeating: "ab", count: 32))
        case .truncatedFile:
            try bed.publish(version: "2", payload: upgrade, replies: [.body(Array(bytes.prefix(bytes.count - 100)))])
        case .bodyLongerThanAnnounced:
            try bed.publish(version: "2", payload: upgrade, replies: [.body(bytes + bytes, contentLength: false)])
        case .notAModel:
            // A real file that is not a model, announced with its true size and hash.
            let png = try Data(contentsOf: Fixtures.models.appendingPathComponent("images/coffee.png"))
            bed.server.route(manifest, .body(RemoteTestBed.manifest(
                name: "flowers", version: "2", url: "flowers-2.tflite", sha256: try sha256sum(png), size: png.count)))
            bed.server.route(file, .body([UInt8](png)))
        case .rejectedByValidator:
            try bed.publish(version: "2", payload: upgrade)
        }
        return file
    }

    private func expected(_ fault: DownloadFault, _ error: ModelDownloadError, bed: RemoteTestBed, upgrade: CorpusModel) -> Bool {
        let fileURL = bed.server.url("/manifests/\(bed.model.name)-2.tflite")
        switch (fault, error) {
        case (.manifest404, .httpStatus(404, bed.model.source)), (.manifest500, .httpStatus(500, bed.model.source)),
             (.model404, .httpStatus(404, fileURL)), (.model500, .httpStatus(500, fileURL)):
            return true
        case (.malformedManifest, .invalidManifest(let url, _)):
            return url == bed.model.source
        case (.hugeManifest, .invalidManifest(let url, let reason)):
            return url == bed.model.source && reason.contains("larger than")
        case (.notHTTP, .transport(let url, _)):
            return url == fileURL
        case (.manifestForAnotherModel, .manifestNameMismatch(expected: "flowers", found: "tulips")):
            return true
        case (.modelTooLarge, .modelTooLarge(size: 1 << 40, limit: RemoteTestBed.quick.maximumModelSize)):
            return true
        case (.fileURLInManifest, .unsupportedURL(let url, _)):
            return url.scheme == "file"
        case (.redirectToFile, .unsupportedURL(let url, _)):
            return url.scheme == "file"
        case (.redirectToFile, .httpStatus(404, fileURL)):
            // swift-corelibs-foundation turns a `file:` Location into that path on the same
            // HTTP server; the local file is never read.
            return !bed.server.requests(to: "/etc/hostname").isEmpty
        case (.connectionDroppedMidBody, .transport(let url, _)), (.stalledBody, .transport(let url, _)):
            return url == fileURL
        case (.wrongSHA256, .checksumMismatch(fileURL, let claimed, let actual)):
            return claimed == String(repeating: "ab", count: 32) && actual == upgrade.sha256
        case (.truncatedFile, .sizeMismatch(fileURL, let announced, let received)):
            return announced == Int64(upgrade.size) && received == Int64(upgrade.size - 100)
        case (.bodyLongerThanAnnounced, .sizeMismatch(fileURL, let announced, let received)):
            return announced == Int64(upgrade.size) && received > announced
        case (.notAModel, .invalidModel):
            return true
        case (.rejectedByValidator, .invalidModel(let reason)):
            return reason == LoaderRejection().description
        default:
            return false
        }
    }

    @Test func aFailedFirstDownloadLeavesNothingBehind() async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.small()
        try bed.publish(version: "1", payload: payload, sha256: String(repeating: "0", count: 64))
        await #expect(throws: ModelDownloadError.self) {
            try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        }
        #expect(!bed.manager.isModelDownloaded(bed.model))
        #expect(bed.manager.latestModelFilePath(bed.model) == nil)
        #expect(bed.folderContents() == [])
        #expect(bed.recorder.events.map(\.succeeded) == [false])
    }

    @Test func anUnreachableServerFailsAsTransientAfterRetries() async throws {
        // A port held without listening: connections to it are refused.
        let closed = try RefusingPort()
        let manager = ModelManager(cacheDirectory: FileManager.default.temporaryDirectory
            .appendingPathComponent("remote-model-tests-\(UUID().uuidString)"))
        let model = try RemoteModel(name: "flowers", source: closed.url("/m.json"))
        let thrown = await #expect(throws: ModelDownloadError.self) {
            try await manager.downloadModel(model, conditions: RemoteTestBed.quick)
        }
        #expect(thrown?.isTransient == true)
        // Holds the port until here: released earlier, another test's server could take it.
        #expect(closed.port > 0)
    }
}

/// SHA-256 of `data` computed by the system's `sha256sum`, independent of the code under test.
func sha256sum(_ data: Data) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
    try data.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sha256sum", file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output.prefix(64), as: UTF8.self)
}

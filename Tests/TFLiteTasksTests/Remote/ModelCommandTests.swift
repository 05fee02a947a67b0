import Foundation
import Testing
@testable import TFLiteTasks
import TestSupport

/// The `tflite model` subcommands, run as real processes against the loopback server.
@Suite(.enabled(if: TFLiteExecutable.url != nil, "the tflite executable is built next to the tests"))
struct ModelCommandTests {
    static func tflite(_ arguments: [String]) async throws -> TFLiteExecutable.Run {
        try await TFLiteExecutable.run(arguments)
    }

    @Test func downloadPathListDelete() async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.small()
        try bed.publish(version: "4", payload: payload)
        let cache = ["--cache-dir", bed.cache.path]
        let url = bed.model.source.absoluteString

        let download = try await Self.tflite(["model", "download", "flowers", "--url", url] + cache)
        #expect(download.status == 0, "\(download.stderr)")
        #expect(download.stdout.contains("flowers downloaded: version 4"))
        let expectedPath = try #require(bed.manager.latestModelFilePath(bed.model))

        let again = try await Self.tflite(["model", "download", "flowers", "--url", url] + cache)
        #expect(again.status == 0)
        #expect(again.stdout.contains("flowers is up to date: version 4"))

        let path = try await Self.tflite(["model", "path", "flowers"] + cache)
        #expect(path.status == 0)
        #expect(path.stdout == expectedPath.path + "\n")

        let list = try await Self.tflite(["model", "list"] + cache)
        let rows = list.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.count == 2)
        #expect(rows.last.map { [String($0[0]), String($0[1]), String($0[2]), String($0[4])] }
            == ["flowers", "4", String(payload.size), expectedPath.path])

        let delete = try await Self.tflite(["model", "delete", "flowers"] + cache)
        #expect(delete.status == 0)
        #expect(!bed.manager.isModelDownloaded(bed.model))

        let gone = try await Self.tflite(["model", "path", "flowers"] + cache)
        #expect(gone.status == 1)
        #expect(gone.stdout.isEmpty)
        #expect(gone.stderr.hasPrefix("error: no downloaded model named 'flowers'"))
        let deleteAgain = try await Self.tflite(["model", "delete", "flowers"] + cache)
        #expect(deleteAgain.status == 1)
    }

    @Test func aFailedDownloadExitsWithStatus1AndKeepsTheModel() async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.small()
        try bed.publish(version: "1", payload: payload)
        let before = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        try bed.publish(version: "2", payload: try CorpusModel.upgrade(), replies: [.status(500)])
        let run = try await Self.tflite(["model", "download", "flowers", "--url", bed.model.source.absoluteString,
                                         "--cache-dir", bed.cache.path, "--retries", "1"])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("error: HTTP status 500 from "))
        #expect(bed.server.requests(to: "/manifests/flowers-2.tflite").count == 2)
        #expect(bed.manager.latestModelFilePath(bed.model) == before.model.path)
    }

    @Test(arguments: [
        ["model"],
        ["model", "fetch", "x"],
        ["model", "download", "x"],
        ["model", "download", "--url", "http://127.0.0.1:1/m.json"],
        ["model", "download", "../up", "--url", "http://127.0.0.1:1/m.json"],
        ["model", "download", "x", "--url", "file:///etc/hostname"],
        ["model", "download", "x", "--url", "http://127.0.0.1:1/m.json", "--retries", "-1"],
        ["model", "path"],
        ["model", "list", "extra"],
        ["model", "list", "--url", "http://127.0.0.1:1/m.json"],
    ])
    func badUsageExitsWithStatus2(_ arguments: [String]) async throws {
        let run = try await Self.tflite(arguments + ["--cache-dir", FileManager.default.temporaryDirectory.path + "/unused-\(UUID())"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("error: "))
    }

    /// Two processes downloading the same model into one cache end with one good file.
    @Test(arguments: 1...3)
    func twoProcessesDownloadingAtOnceLeaveOneGoodFile(_ round: Int) async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.large()
        try bed.publish(version: "1", payload: payload)
        let arguments = ["model", "download", "flowers", "--url", bed.model.source.absoluteString, "--cache-dir", bed.cache.path]
        async let first = Self.tflite(arguments)
        async let second = Self.tflite(arguments)
        let runs = try await [first, second]
        #expect(runs.map(\.status) == [0, 0], "\(runs.map(\.stderr))")
        #expect(bed.folderContents() == [".lock", payload.sha256 + ".tflite", "record.json"])
        let path = try #require(bed.manager.latestModelFilePath(bed.model))
        #expect(try [UInt8](Data(contentsOf: path)) == payload.bytes())
    }
}

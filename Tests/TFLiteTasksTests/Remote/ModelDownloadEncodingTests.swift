import Foundation
import Testing
@testable import TFLiteTasks

/// Bodies sent with a content or transfer coding: the downloader asks for `identity`, decodes
/// gzip when a server compresses anyway (then checks size and SHA-256 of the decoded bytes),
/// reassembles chunked bodies, and refuses other codings by name.
@Suite struct ModelDownloadEncodingTests {
    @Test(arguments: RemoteTestBed.transports)
    func aGzipBodyIsDecoded(_ transport: HTTPTransport) async throws {
        let bed = try RemoteTestBed()
        _ = try await bed.downloadGoodModel()
        let upgrade = try CorpusModel.upgrade()
        let file = try bed.publish(version: "2", payload: upgrade, replies: [.encoded(try gzipped(upgrade.bytes()), encoding: "gzip")])
        let result = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.over(transport))
        #expect(result.model.sha256 == upgrade.sha256)
        #expect(try [UInt8](Data(contentsOf: result.model.path)) == upgrade.bytes())
        #expect(bed.server.requests(to: file).map { $0.headers["accept-encoding"] } == ["identity"])
        #expect(bed.server.requests(to: bed.manifestPath).last?.headers["accept-encoding"] == "identity")
        #expect(bed.folderContents() == [".lock", upgrade.sha256 + ".tflite", "record.json"])
    }

    @Test(arguments: RemoteTestBed.transports)
    func aGzipManifestIsDecoded(_ transport: HTTPTransport) async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.small()
        try bed.publish(version: "1", payload: payload)
        bed.server.route(bed.manifestPath, .encoded(try gzipped(RemoteTestBed.manifest(
            name: "flowers", version: "1", url: "flowers-1.tflite", sha256: payload.sha256, size: payload.size)), encoding: "x-gzip"))
        let result = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.over(transport))
        #expect(result.model.sha256 == payload.sha256)
    }

    /// A well-formed gzip stream of the wrong bytes: caught after decoding, as for any body.
    @Test(arguments: RemoteTestBed.transports)
    func aGzipBodyIsVerifiedAfterDecoding(_ transport: HTTPTransport) async throws {
        let bed = try RemoteTestBed()
        let previous = try await bed.downloadGoodModel()
        let upgrade = try CorpusModel.upgrade()
        var altered = try upgrade.bytes()
        altered[altered.count / 2] ^= 0xff
        let file = try bed.publish(version: "2", payload: upgrade, replies: [.encoded(try gzipped(altered), encoding: "gzip")])
        let thrown = await #expect(throws: ModelDownloadError.self) {
            try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.over(transport))
        }
        let actual = try sha256sum(Data(altered))
        #expect(thrown == .checksumMismatch(url: bed.server.url(file), expected: upgrade.sha256, actual: actual))
        bed.expectCacheHolds(previous.model, bytes: previous.bytes)
    }

    @Test(arguments: RemoteTestBed.transports)
    func aGzipBodyOfAnotherSizeIsASizeMismatch(_ transport: HTTPTransport) async throws {
        let bed = try RemoteTestBed()
        let previous = try await bed.downloadGoodModel()
        let upgrade = try CorpusModel.upgrade()
        let file = try bed.publish(version: "2", payload: upgrade, replies: [.encoded(try gzipped(previous.bytes), encoding: "gzip")])
        let thrown = await #expect(throws: ModelDownloadError.self) {
            try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.over(transport))
        }
        #expect(thrown == .sizeMismatch(url: bed.server.url(file), expected: Int64(upgrade.size), received: Int64(previous.bytes.count)))
        bed.expectCacheHolds(previous.model, bytes: previous.bytes)
    }

    /// The socket client's own gzip checks (URLSession's decoder reports its own errors).
    @Test(.enabled(if: RemoteTestBed.socketClientIsUsed), arguments: ["truncated", "bad CRC", "not gzip"])
    func aDamagedGzipBodyIsRefusedAsCorrupt(_ damage: String) async throws {
        let bed = try RemoteTestBed()
        let previous = try await bed.downloadGoodModel()
        let upgrade = try CorpusModel.upgrade()
        var body = try gzipped(upgrade.bytes())
        switch damage {
        case "truncated": body.removeLast(20)
        case "bad CRC": body[body.count - 8] ^= 1
        default: body = try upgrade.bytes()
        }
        let file = try bed.publish(version: "2", payload: upgrade, replies: [.encoded(body, encoding: "gzip")])
        let thrown = await #expect(throws: ModelDownloadError.self) {
            try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        }
        guard case .corruptEncoding(let url, "gzip", let reason)? = thrown else {
            Issue.record("\(damage): expected a corrupt gzip error, got \(String(describing: thrown))")
            return
        }
        #expect(url == bed.server.url(file))
        #expect(thrown?.description.hasPrefix("the gzip-encoded body of \(url.absoluteString) cannot be decoded: \(reason)") == true)
        #expect(bed.server.requests(to: file).count == 1)
        bed.expectCacheHolds(previous.model, bytes: previous.bytes)
    }

    @Test(arguments: RemoteTestBed.transports, ["br", "zstd", "gzip, gzip"])
    func anUnsupportedEncodingIsRefusedByName(_ transport: HTTPTransport, _ encoding: String) async throws {
        let bed = try RemoteTestBed()
        let previous = try await bed.downloadGoodModel()
        let upgrade = try CorpusModel.upgrade()
        let file = try bed.publish(version: "2", payload: upgrade, replies: [.encoded(try upgrade.bytes(), encoding: encoding)])
        let thrown = await #expect(throws: ModelDownloadError.self) {
            try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.over(transport))
        }
        #expect(thrown == .unsupportedEncoding(url: bed.server.url(file), encoding: encoding))
        #expect(thrown?.description.contains("encoding '\(encoding)'") == true)
        #expect(bed.server.requests(to: file).count == 1)
        bed.expectCacheHolds(previous.model, bytes: previous.bytes)
    }

    @Test(arguments: RemoteTestBed.transports, [1, 1000, 100_000])
    func aChunkedBodyIsReassembled(_ transport: HTTPTransport, _ chunkSize: Int) async throws {
        let bed = try RemoteTestBed()
        // One-byte chunks of the small model; the large one in many chunks, or a few.
        let payload = try chunkSize == 1 ? CorpusModel.small() : CorpusModel.large()
        try bed.publish(version: "1", payload: payload, replies: [.chunked(try payload.bytes(), chunkSize: chunkSize, trailer: nil)])
        let result = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.over(transport))
        #expect(try [UInt8](Data(contentsOf: result.model.path)) == payload.bytes())
    }

    /// Trailer fields after the last chunk are read past. (Only the socket client: the Swift
    /// 6.3 URLSession on Linux stops the process with "Transfer completed, but there's no
    /// response." when a chunked body ends with a trailer.)
    @Test(.enabled(if: RemoteTestBed.socketClientIsUsed))
    func aChunkedTrailerIsSkipped() async throws {
        let bed = try RemoteTestBed()
        let payload = try CorpusModel.small()
        try bed.publish(version: "1", payload: payload, replies: [
            .chunked(try payload.bytes(), chunkSize: 500, trailer: "X-Checksum: ignored"),
        ])
        let result = try await bed.manager.downloadModel(bed.model, conditions: RemoteTestBed.quick)
        #expect(try [UInt8](Data(contentsOf: result.model.path)) == payload.bytes())
    }
}

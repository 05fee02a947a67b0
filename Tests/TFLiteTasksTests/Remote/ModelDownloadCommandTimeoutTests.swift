import Foundation
import Testing
@testable import TFLiteTasks
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tflite model download` against a server that stalls: it waits without using the CPU,
/// stops at `--timeout`, fails with status 1, and leaves the cache as it was; Ctrl-C cancels
/// it the same way.
@Suite(.enabled(if: TFLiteExecutable.url != nil, "the tflite executable is built next to the tests"))
struct ModelDownloadCommandTimeoutTests {
    static func download(_ bed: RemoteTestBed, _ options: [String]) throws -> SpawnedProcess {
        try SpawnedProcess(try #require(TFLiteExecutable.url), [
            "model", "download", "flowers", "--url", bed.model.source.absoluteString, "--cache-dir", bed.cache.path,
        ] + options)
    }

    /// Waiting is done in the kernel: the CPU time of the whole process (start-up and the
    /// manifest included) stays far below the 2 s it waits. A correctness property (no
    /// spinning), with a wide margin, not a benchmark.
    @Test(arguments: [Stall.modelBeforeStatusLine, .modelMidBody, .modelDrip])
    func aStalledDownloadWaitsWithoutCPUAndStopsAtTheTimeout(_ stall: Stall) async throws {
        let bed = try RemoteTestBed()
        let previous = try await bed.downloadGoodModel()
        let upgrade = try CorpusModel.upgrade()
        let bytes = try upgrade.bytes()
        let file = try bed.publish(version: "2", payload: upgrade, replies: [
            stall == .modelBeforeStatusLine ? .silence(seconds: 10)
                : stall == .modelMidBody ? .stall(bytes, bytes: bytes.count / 2, seconds: 10) : .drip(bytes, interval: 0.1),
        ])
        let run = try await Self.download(bed, ["--timeout", "2", "--idle-timeout", "10"]).wait()
        #expect(run.exitStatus == 1)
        #expect(run.stderr == "error: the download did not finish within its deadline of 2 s (waiting for \(bed.server.url(file).absoluteString))\n")
        #expect(run.stdout.isEmpty)
        // Short of the 10 s stall, with margin for a suite that keeps both cores busy.
        #expect(run.wallSeconds >= 1.95 && run.wallSeconds < 7, "took \(run.wallSeconds) s")
        if RemoteTestBed.socketClientIsUsed {
            #expect(run.cpuSeconds < 0.5, "\(run.cpuSeconds) s of CPU in \(run.wallSeconds) s")
        }
        bed.expectCacheHolds(previous.model, bytes: previous.bytes)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptCancelsTheDownloadAndRemovesItsPartialFile(_ signal: Int32) async throws {
        let bed = try RemoteTestBed()
        let previous = try await bed.downloadGoodModel()
        let upgrade = try CorpusModel.upgrade()
        let bytes = try upgrade.bytes()
        let file = try bed.publish(version: "2", payload: upgrade, replies: [.stall(bytes, bytes: 1000, seconds: 10)])
        let child = try Self.download(bed, ["--timeout", "20"])
        // Interrupted once the partial file holds bytes of the new version.
        let waitStarted = ContinuousClock.now
        while !bed.folderContents().contains(where: { $0.hasPrefix(".partial-") }) || bed.server.requests(to: file).isEmpty {
            guard seconds(since: waitStarted) < 10 else { break }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        child.send(signal)
        let run = await child.wait()
        #expect(run.exitStatus == 1)
        #expect(run.stderr == "error: the download was cancelled\n")
        #expect(run.wallSeconds < 8, "took \(run.wallSeconds) s of a 10 s stall")
        bed.expectCacheHolds(previous.model, bytes: previous.bytes)
    }

    @Test func theHelpDescribesTheTimeouts() async throws {
        let run = try await TFLiteExecutable.run(["model", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("[--timeout SECONDS] [--idle-timeout SECONDS]"))
        #expect(run.stdout.contains("--timeout SECONDS    deadline for the whole download"))
        #expect(run.stdout.contains("(default 600 s)"))
        #expect(run.stdout.contains("(default 30 s)"))
    }

    @Test(arguments: [["--timeout", "0"], ["--timeout", "-1"], ["--timeout", "soon"], ["--idle-timeout", "0"], ["--timeout", "nan"]])
    func aBadTimeoutIsAUsageError(_ option: [String]) async throws {
        let run = try await TFLiteExecutable.run(["model", "download", "x", "--url", "http://127.0.0.1:1/m.json"] + option
            + ["--cache-dir", FileManager.default.temporaryDirectory.path + "/unused-\(UUID())"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("error: option \(option[0]) needs a"))
    }
}

import Foundation
import Testing
@testable import TFLiteTasks
import TestSupport

/// The default validator runs the full model loader on the downloaded file.
@Suite struct ModelLoaderValidatorTests {
    func check(_ bytes: [UInt8]) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("header-\(UUID().uuidString).tflite")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try ModelManager.modelLoaderValidator(file)
    }

    func rejection(_ bytes: [UInt8]) -> String? {
        do {
            try check(bytes)
            return nil
        } catch ModelDownloadError.invalidModel(let reason) {
            return reason
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test(arguments: try CorpusModel.all())
    func everyCorpusModelPasses(_ model: CorpusModel) throws {
        try ModelManager.modelLoaderValidator(Fixtures.corpusFile(model.model))
    }

    @Test func damagedHeadersAreRejectedWithTheReason() throws {
        let good = try CorpusModel.small().bytes()
        func patched(_ offset: Int, _ values: [UInt8]) -> [UInt8] {
            var bytes = good
            bytes.replaceSubrange(offset..<(offset + values.count), with: values)
            return bytes
        }
        #expect(rejection(Array(good.prefix(7))) != nil)
        #expect(rejection(patched(4, Array("TFL2".utf8)))?.contains("TFL3") == true)
        #expect(rejection(patched(0, [0xf0, 0xff, 0xff, 0x7f])) != nil)
        #expect(rejection(patched(0, [0x0a, 0, 0, 0])) != nil)
        let root = Int(good[0]) | Int(good[1]) << 8 | Int(good[2]) << 16 | Int(good[3]) << 24
        #expect(rejection(patched(root, [0x00, 0x00, 0x00, 0x80])) != nil)
        for damaged in [Array(good.prefix(7)), patched(0, [0xf0, 0xff, 0xff, 0x7f]), patched(root, [0x00, 0x00, 0x00, 0x80])] {
            #expect(rejection(damaged)?.hasPrefix("unexpected") == false)
        }
    }

    /// Random damage to the first bytes either passes or gives `invalidModel`: never a trap.
    @Test func randomHeaderDamageNeverCrashes() throws {
        let good = try CorpusModel.small().bytes()
        var generator = SystemRandomNumberGenerator()
        var rejected = 0
        for _ in 0..<300 {
            var bytes = Array(good.prefix(Int.random(in: 0...64, using: &generator)))
            for _ in 0..<Int.random(in: 1...4, using: &generator) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let reason = rejection(bytes)
            #expect(reason?.hasPrefix("unexpected") != true)
            if reason != nil { rejected += 1 }
        }
        #expect(rejected > 0)
    }
}

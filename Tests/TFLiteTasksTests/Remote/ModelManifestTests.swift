import Foundation
import Testing
@testable import TFLiteTasks

@Suite struct ModelManifestTests {
    let source = URL(string: "https://models.example/v1/flowers/manifest.json")!
    let hash = String(repeating: "Ab", count: 32)

    func decode(_ json: String) throws(ModelDownloadError) -> ModelManifest {
        try ModelManifest(decoding: Data(json.utf8), from: source)
    }

    @Test func relativeURLResolvesAgainstTheManifestAndExtraKeysAreIgnored() throws {
        let manifest = try decode(#"{"name":"flowers","version":"3","url":"../files/f.tflite","sha256":"\#(hash)","size":3164,"extra":[1,2]}"#)
        #expect(manifest.name == "flowers")
        #expect(manifest.version == "3")
        #expect(manifest.modelURL.absoluteString == "https://models.example/v1/files/f.tflite")
        #expect(manifest.sha256 == hash.lowercased())
        #expect(manifest.size == 3164)
    }

    @Test func absoluteURLIsKept() throws {
        let manifest = try decode(#"{"name":"f","version":"1","url":"http://cdn.example/x.tflite","sha256":"\#(hash)","size":1}"#)
        #expect(manifest.modelURL.absoluteString == "http://cdn.example/x.tflite")
    }

    static let invalid: [(String, String)] = [
        (#"not json"#, "not valid JSON"),
        (#"[1]"#, "expected a JSON object"),
        (#"{"version":"1","url":"a","sha256":"HASH","size":1}"#, "missing key 'name'"),
        (#"{"name":"f","version":1,"url":"a","sha256":"HASH","size":1}"#, "'version' must be a string"),
        (#"{"name":"f","version":"","url":"a","sha256":"HASH","size":1}"#, "'version' must be"),
        (#"{"name":"f","version":"1","url":"a","sha256":"abc","size":1}"#, "'sha256' must be 64"),
        (#"{"name":"f","version":"1","url":"a","sha256":"HASH","size":0}"#, "'size' must be a positive"),
        (#"{"name":"f","version":"1","url":"a","sha256":"HASH","size":1.5}"#, "'size' must be an integer"),
        (#"{"name":"f","version":"1","url":"a","sha256":"HASH"}"#, "missing key 'size'"),
        (#"{"name":"f","version":"1","url":"a","sha256":"HASH","size":"12"}"#, "'size' must be an integer"),
    ]

    @Test(arguments: 0..<invalid.count)
    func invalidManifestsNameTheProblem(_ index: Int) {
        let (json, reason) = Self.invalid[index]
        let thrown = #expect(throws: ModelDownloadError.self) {
            try decode(json.replacingOccurrences(of: "HASH", with: hash))
        }
        guard case .invalidManifest(let url, let message) = thrown else {
            Issue.record("expected invalidManifest, got \(String(describing: thrown))")
            return
        }
        #expect(url == source)
        #expect(message.contains(reason), "\(message)")
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://host/x.tflite", "data:,abc", "http:///nohost"])
    func nonHTTPModelURLsAreRefused(_ url: String) {
        #expect {
            try decode(#"{"name":"f","version":"1","url":"\#(url)","sha256":"\#(hash)","size":1}"#)
        } throws: { error in
            if case ModelDownloadError.unsupportedURL = error { return true }
            return false
        }
    }

    @Test(arguments: ["", ".hidden", "a/b", "..", "sp ace", String(repeating: "x", count: 129), "ü"])
    func unsafeModelNamesAreRefused(_ name: String) {
        #expect(throws: ModelDownloadError.invalidModelName(name)) {
            try RemoteModel(name: name, source: URL(string: "https://h/m.json")!)
        }
    }

    @Test func remoteModelNeedsAnHTTPManifest() throws {
        #expect(throws: ModelDownloadError.self) {
            try RemoteModel(name: "ok", source: URL(fileURLWithPath: "/tmp/m.json"))
        }
        let model = try RemoteModel(name: "Model_v2.1-a", source: URL(string: "HTTPS://h/m.json")!)
        #expect(model.name == "Model_v2.1-a")
    }
}

extension ModelManifestTests {
    /// Random damage to a valid manifest parses or gives `invalidManifest`/`unsupportedURL`,
    /// never a trap.
    @Test func randomManifestDamageNeverCrashes() {
        let valid = Array(#"{"name":"flowers","version":"3","url":"f.tflite","sha256":"\#(hash)","size":3164}"#.utf8)
        var generator = SystemRandomNumberGenerator()
        var outcomes = (parsed: 0, refused: 0)
        for _ in 0..<2000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                }
            }
            do {
                _ = try ModelManifest(decoding: Data(bytes), from: source)
                outcomes.parsed += 1
            } catch .invalidManifest, .unsupportedURL {
                outcomes.refused += 1
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        #expect(outcomes.parsed + outcomes.refused == 2000)
        #expect(outcomes.refused > 0)
    }
}

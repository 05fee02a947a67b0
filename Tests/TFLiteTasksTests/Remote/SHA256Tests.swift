import Foundation
import Testing
@testable import TFLiteTasks

@Suite struct SHA256Tests {
    /// The SHA-256 examples of FIPS 180-2, appendix B.
    @Test func fipsExamples() {
        #expect(SHA256.hex(of: Array("abc".utf8))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every padding length around the 55/56/64-byte block boundaries, against `sha256sum`.
    @Test func paddingBoundariesMatchSha256sum() throws {
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            #expect(SHA256.hex(of: bytes) == (try sha256sum(Data(bytes))), "length \(length)")
        }
    }

    /// The corpus manifest records each model's SHA-256 (models up to 1 MB: the debug build
    /// hashes slowly and the larger ones add nothing new).
    @Test(arguments: try CorpusModel.all().filter { $0.size <= 1_000_000 })
    func corpusModelsMatchTheManifest(_ model: CorpusModel) throws {
        let bytes = try model.bytes()
        #expect(bytes.count == model.size)
        #expect(SHA256.hex(of: bytes) == model.sha256)
    }

    /// Feeding the message in arbitrary pieces gives the one-shot digest.
    @Test func incrementalUpdatesMatchOneShot() throws {
        var generator = SystemRandomNumberGenerator()
        let message = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let whole = SHA256.hex(of: message)
        for _ in 0..<50 {
            var hasher = SHA256()
            var offset = 0
            while offset < message.count {
                let piece = min(Int.random(in: 0...200, using: &generator), message.count - offset)
                hasher.update(Array(message[offset..<(offset + piece)]))
                offset += piece
            }
            #expect(hasher.finalizeHex() == whole)
        }
    }
}

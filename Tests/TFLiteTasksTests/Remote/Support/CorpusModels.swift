import Foundation
import TestSupport

/// Model files of the LiteRT corpus with the size and SHA-256 its manifest records for them:
/// real payloads for download tests, hashed independently of the code under test.
struct CorpusModel: Decodable, Hashable, Sendable, CustomStringConvertible {
    var model: String
    var size: Int
    var sha256: String

    enum CodingKeys: String, CodingKey {
        case model
        case size = "model_bytes"
        case sha256 = "model_sha256"
    }

    var description: String { model }

    /// The file's bytes.
    func bytes() throws -> [UInt8] {
        try Fixtures.corpusBytes(model)
    }

    /// Every distinct model of the corpus manifest, sorted by path.
    static func all() throws -> [CorpusModel] {
        let data = try Data(contentsOf: Fixtures.corpusFile("manifest.json"))
        return Array(Set(try JSONDecoder().decode([CorpusModel].self, from: data))).sorted { $0.model < $1.model }
    }

    /// The corpus model at `path` (relative to the corpus root).
    static func named(_ path: String) throws -> CorpusModel {
        guard let found = try all().first(where: { $0.model == path }) else {
            throw ServerError("no model \(path) in the corpus manifest")
        }
        return found
    }

    /// A 3 KB float model: the first version in download tests.
    static func small() throws -> CorpusModel { try named("models/sine_float.tflite") }
    /// A 4 KB model: the upgraded version.
    static func upgrade() throws -> CorpusModel { try named("models/zoo_conv2d.tflite") }
    /// A 230 KB model: large enough to arrive in many pieces.
    static func large() throws -> CorpusModel { try named("models/face_detection_short_range.tflite") }
}

import Foundation

/// Paths to the repository's bundled models and test fixtures, found from this source file's
/// location so tests run from any working directory.
public enum Fixtures {
    /// The repository root (the folder holding Package.swift).
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // TestSupport
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // root

    /// `Models/`: the models and sample photos shipped with the package.
    public static let models = root.appendingPathComponent("Models")

    /// `Tests/Fixtures/corpus`: the LiteRT conformance corpus (models, cases, goldens, images).
    public static let corpus = root.appendingPathComponent("Tests/Fixtures/corpus")

    /// `Tests/Fixtures/peers`: cases of LiteRT's and TFLite Micro's own test suites
    /// (Scripts/import_peer_cases.py), in the corpus manifest's format.
    public static let peers = root.appendingPathComponent("Tests/Fixtures/peers")

    /// `Tests/Fixtures/mediapipe`: MediaPipe's face landmark models, a face crop and LiteRT's
    /// outputs of face_landmark.tflite on it (Scripts/make_face_landmark_fixtures.py).
    public static let mediapipe = root.appendingPathComponent("Tests/Fixtures/mediapipe")

    /// `Tests/Fixtures/opzoo`: one small model per op and type the corpus lacks, with goldens
    /// from LiteRT's reference kernels (Scripts/make_op_zoo.py), in the corpus manifest's format.
    public static let opZoo = root.appendingPathComponent("Tests/Fixtures/opzoo")

    /// `Tests/Fixtures/transformers`: a small decoder-only transformer converted with
    /// litert-torch (float, int8 and blockwise int4), with LiteRT's outputs at every step of a
    /// greedy decode (Scripts/transformers).
    public static let transformers = root.appendingPathComponent("Tests/Fixtures/transformers")

    /// A corpus file by its path relative to the corpus root, e.g. `models/zoo_pool.tflite`.
    public static func corpusFile(_ relativePath: String) -> URL {
        corpus.appendingPathComponent(relativePath)
    }

    /// The bytes of a corpus file.
    public static func corpusBytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: corpusFile(relativePath)))
    }
}

import Foundation
import TestSupport
import TFLiteRuntime

/// Paths to the task fixtures (`Tests/Fixtures/tasks`) and bundled files.
enum TaskFixtures {
    static let root = Fixtures.root.appendingPathComponent("Tests/Fixtures/tasks")

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static func corpusPath(_ relative: String) -> String { Fixtures.corpusFile(relative).path }

    static func modelsPath(_ relative: String) -> String { Fixtures.models.appendingPathComponent(relative).path }

    /// A `.npy` file as an array.
    static func npy(_ path: String) throws -> NPYArray {
        try NPYArray(npyBytes: FileIO.read(path))
    }

    /// A fresh empty directory under the system's temporary folder.
    static func temporaryDirectory(_ name: String = #function) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tflite-tasks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

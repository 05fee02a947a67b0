import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// A model past 2 GB (Scripts/make_large_model.py): an EMBEDDING_LOOKUP over a 2.46 GB float
/// table stored after the FlatBuffer by `Buffer.offset`. Written as a sparse file (the header and
/// three rows; the rest is a hole), it must load without reading the table, run reading only the
/// rows it looks up, and give LiteRT's output.
@Suite struct LargeModelTests {
    static let rows = 600_000, columns = 1024, dataOffset = 1 << 16
    static let ids: [Int32] = [5, 299_999, 599_999]
    static let folder = Fixtures.root.appendingPathComponent("Tests/Fixtures/large")

    /// Writes the model the fixture describes into `directory`; row `r`, column `c` holds
    /// `r + c / 1024`, as the script wrote it for LiteRT.
    static func writeModel(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("large.tflite")
        let header = try Data(contentsOf: folder.appendingPathComponent("header.tflite"))
        FileManager.default.createFile(atPath: url.path, contents: header)
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        for r in ids {
            let values = (0..<columns).map { Float(Double(r) + Double($0) / Double(columns)) }
            try file.seek(toOffset: UInt64(dataOffset + Int(r) * columns * 4))
            try file.write(contentsOf: values.withUnsafeBytes { Data($0) })
        }
        try file.truncate(atOffset: UInt64(dataOffset + rows * columns * 4))
        return url
    }

    /// Resident memory of this process in bytes (Linux), nil elsewhere.
    static func residentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kb * 1024
    }

    @Test func loadsAndRunsWithoutReadingTheTable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("large-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try Self.writeModel(in: directory)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
        #expect(size > 1 << 31)

        let before = Self.residentBytes()
        let interpreter = try Interpreter(modelPath: url.path, options: .init(threadCount: 1))
        try interpreter.allocateTensors()
        try interpreter.copy(Self.ids, toInputAt: 0)
        try interpreter.invoke()
        let output = try interpreter.output(at: 0)
        let golden = try NPYArray(contentsOf: Self.folder.appendingPathComponent("out0.npy").path)
        #expect(output.shape == golden.shape)
        #expect(output.values(as: Float.self) == golden.values(as: Float.self))
        if let before, let after = Self.residentBytes() {
            // The three rows are 12 KB; the table is 2.46 GB. Anything near the table's size
            // means it was read or copied.
            #expect(after - before < 64 << 20, "resident memory grew by \(after - before) bytes")
        }
    }
}

import Foundation
import TestSupport

/// Test vectors of TFLite Micro's signal-library kernel tests, copied into
/// Tests/Fixtures/kernels/tflm_signal_vectors.csv (one vector a row: its name, then its
/// values; see the README beside it for the tests they come from).
enum SignalVectors {
    static let rows: [String: [Substring]] = {
        let url = Fixtures.root.appendingPathComponent("Tests/Fixtures/kernels/tflm_signal_vectors.csv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var rows: [String: [Substring]] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",")
            if let name = fields.first { rows[String(name)] = Array(fields.dropFirst()) }
        }
        return rows
    }()

    /// The vector `name` as integers of type `T`.
    static func integers<T: FixedWidthInteger>(_ name: String, as: T.Type = T.self) -> [T] {
        (rows[name] ?? []).map { T($0)! }
    }

    /// The vector `name` as floats (parsed as C parses the literals: to the nearest float).
    static func floats(_ name: String) -> [Float] {
        (rows[name] ?? []).map { Float($0)! }
    }
}

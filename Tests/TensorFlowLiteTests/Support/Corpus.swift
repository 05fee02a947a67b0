import Foundation
import TestSupport

/// A case of the LiteRT conformance corpus (`Tests/Fixtures/corpus`): the model, the inputs
/// and the golden outputs LiteRT computed, in model (or signature) order.
struct Corpus {
    let entry: CorpusCase
    let inputs: [NPYFile]
    let goldens: [NPYFile]

    init(_ name: String) throws {
        guard let entry = try CorpusCase.all().first(where: { $0.caseName == name }) else {
            throw NPYError.malformed("no corpus case \(name)")
        }
        self.entry = entry
        inputs = try entry.inputs.map { try NPYFile(contentsOf: Fixtures.corpusFile($0.file)) }
        goldens = try entry.outputs.map { try NPYFile(contentsOf: Fixtures.corpusFile($0.file)) }
    }

    var modelPath: String { Fixtures.corpusFile(entry.model).path }

    /// The path of a corpus model by name, e.g. `zoo_dynamic_batch`.
    static func modelPath(_ name: String) -> String { Fixtures.corpusFile("models/\(name).tflite").path }

    /// The quantisation the manifest records for input or output `i` (read from the model
    /// with LiteRT); nil for a tensor that is not quantised.
    func quantization(input i: Int) throws -> (scale: Float, zeroPoint: Int)? { try quantization("inputs", i) }
    func quantization(output i: Int) throws -> (scale: Float, zeroPoint: Int)? { try quantization("outputs", i) }

    private func quantization(_ role: String, _ i: Int) throws -> (scale: Float, zeroPoint: Int)? {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.corpus.appendingPathComponent("manifest.json")))
        guard let cases = json as? [[String: Any]],
              let entry = cases.first(where: { $0["case"] as? String == self.entry.caseName }),
              let tensors = entry[role] as? [[String: Any]],
              let q = tensors[i]["quantization"] as? [String: Any],
              let scale = q["scale"] as? Double, let zeroPoint = q["zero_point"] as? Int
        else { return nil }
        return (Float(scale), zeroPoint)
    }
}

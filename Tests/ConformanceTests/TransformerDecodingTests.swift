import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// The decoder-only transformer of `Tests/Fixtures/transformers` (prefill and decode
/// signatures, an external KV cache), in float, dynamic int8 and blockwise int4 forms, against
/// LiteRT's outputs at every step of a greedy decode.
@Suite struct TransformerDecodingTests {
    struct Manifest: Decodable {
        let models: [ModelCase]
    }

    struct ModelCase: Decodable, CustomTestStringConvertible, Sendable {
        struct Tolerance: Decodable, Sendable {
            let atol: Double
            let rtol: Double
        }
        struct Step: Decodable, Sendable {
            let signature: String
            let inputs: [String: String]
            let outputs: [String: String]
            let nextToken: Int
            enum CodingKeys: String, CodingKey {
                case signature, inputs, outputs
                case nextToken = "next_token"
            }
        }
        let model: String
        let tolerance: Tolerance
        let prompt: [Int32]
        let steps: [Step]
        var testDescription: String { model }
    }

    static let models: [ModelCase] = {
        guard let data = try? Data(contentsOf: Fixtures.transformers.appendingPathComponent("manifest.json")) else { return [] }
        return (try? JSONDecoder().decode(Manifest.self, from: data))?.models ?? []
    }()

    static func array(_ path: String) throws -> NPYArray {
        try NPYArray(contentsOf: Fixtures.transformers.appendingPathComponent(path).path)
    }

    static func expectClose(_ got: [Float], _ golden: [Float], _ tolerance: ModelCase.Tolerance, _ what: String) {
        #expect(got.count == golden.count, "\(what): \(got.count) values, golden \(golden.count)")
        var worst = 0.0, bad = 0
        for (a, g) in zip(got, golden) {
            let diff = abs(Double(a) - Double(g))
            worst = max(worst, diff)
            if diff > tolerance.atol + tolerance.rtol * abs(Double(g)) { bad += 1 }
        }
        #expect(bad == 0, "\(what): \(bad) values outside tolerance, max |diff| \(worst)")
    }

    @Test func manifestLists3Models() {
        #expect(Self.models.map(\.model) == ["models/tiny_decoder_f32.tflite", "models/tiny_decoder_q8.tflite",
                                              "models/tiny_decoder_q4_block32.tflite"])
        #expect(Self.models.allSatisfy { $0.steps.count == 7 })
    }

    /// Each step on its own, from LiteRT's inputs (its KV cache of the step before): every
    /// output, logits and updated caches.
    @Test(arguments: models)
    func everyStepMatchesLiteRT(_ m: ModelCase) throws {
        let interpreter = try Interpreter(modelPath: Fixtures.transformers.appendingPathComponent(m.model).path,
                                          options: .init(threadCount: 1))
        for (s, step) in m.steps.enumerated() {
            let runner = try interpreter.signatureRunner(key: step.signature)
            try runner.allocateTensors()
            for (name, file) in step.inputs { try runner.copy(try Self.array(file).data, toInputNamed: name) }
            try runner.invoke()
            for (name, file) in step.outputs.sorted(by: { $0.key < $1.key }) {
                let golden = try Self.array(file).values(as: Float.self)
                Self.expectClose(try runner.output(named: name).values(as: Float.self), golden, m.tolerance, "\(m.model) step \(s) \(name)")
            }
        }
    }

    /// Greedy decoding driven by our own outputs: the KV cache each step returns is fed to the
    /// next, the next token is our argmax. The tokens must be LiteRT's and the logits within
    /// tolerance of LiteRT's at every step.
    @Test(arguments: models)
    func greedyDecodeFollowsLiteRT(_ m: ModelCase) throws {
        let interpreter = try Interpreter(modelPath: Fixtures.transformers.appendingPathComponent(m.model).path,
                                          options: .init(threadCount: 2))
        let prefill = try interpreter.signatureRunner(key: "prefill_8")
        let decode = try interpreter.signatureRunner(key: "decode")
        try prefill.allocateTensors()
        try decode.allocateTensors()
        let cacheNames = prefill.inputNames.filter { $0.hasPrefix("kv_cache") }
        var cache: [String: [UInt8]] = [:]
        for name in cacheNames {
            cache[name] = [UInt8](repeating: 0, count: try prefill.inputShape(named: name).reduce(4, *))
        }
        var token: Int32 = 0
        for (s, step) in m.steps.enumerated() {
            let runner = s == 0 ? prefill : decode
            let tokens = s == 0 ? m.prompt : [token]
            let positions = s == 0 ? (0..<Int32(m.prompt.count)).map { $0 } : [Int32(m.prompt.count + s - 1)]
            try runner.copy(tokens.withUnsafeBytes { [UInt8]($0) }, toInputNamed: "tokens")
            try runner.copy(positions.withUnsafeBytes { [UInt8]($0) }, toInputNamed: "input_pos")
            for name in cacheNames { try runner.copy(cache[name]!, toInputNamed: name) }
            try runner.invoke()
            let logits = try runner.output(named: "logits").values(as: Float.self)
            let golden = try Self.array(step.outputs["logits"]!).values(as: Float.self)
            Self.expectClose(logits, golden, m.tolerance, "\(m.model) step \(s) logits")
            let last = logits.suffix(256)
            token = Int32(last.indices.max { last[$0] < last[$1] }! - last.startIndex)
            #expect(Int(token) == step.nextToken, "\(m.model) step \(s): next token \(token), LiteRT's \(step.nextToken)")
            for name in cacheNames { cache[name] = try runner.output(named: name).data }
        }
    }
}

import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// The operators `tflite ops` lists against those LiteRT 2.3.0's builtin op resolver registers
/// (Tests/Fixtures/runtime/litert_ops.json, from Scripts/litert_registered_ops.py).
@Suite struct OperatorCoverageTests {
    struct LiteRTOps: Decodable {
        var builtin: [String]
        var custom: [String]
    }

    /// Custom ops we run that LiteRT's default resolver does not register: MediaPipe's
    /// transposed convolution (LiteRT runs it only through XNNPACK), the GenAI ops LiteRT's LLM
    /// runtime adds (GenAIOpsRegisterer) and TFLite Micro's signal library.
    static let beyondLiteRT: Set<String> = ["Convolution2DTransposeBias", "odml.update_external_kv_cache",
                                            "odml.update_kv_cache", "odml.scaled_dot_product_attention"]

    static func liteRT() throws -> LiteRTOps {
        let url = Fixtures.root.appendingPathComponent("Tests/Fixtures/runtime/litert_ops.json")
        return try JSONDecoder().decode(LiteRTOps.self, from: Data(contentsOf: url))
    }

    @Test func everyLiteRTOperatorIsSupported() throws {
        let expected = try Self.liteRT()
        let ours = Set(SupportedOperators.all.map(\.name))
        let missing = Set(expected.builtin + expected.custom).subtracting(ours)
        #expect(missing.isEmpty, "LiteRT registers \(missing.sorted()), tflite ops does not list them")
    }

    @Test func nothingBeyondLiteRTIsListedUnlessNamed() throws {
        let expected = try Self.liteRT()
        let extra = Set(SupportedOperators.all.map(\.name)).subtracting(expected.builtin + expected.custom)
        #expect(extra.subtracting(Self.beyondLiteRT).filter { !$0.hasPrefix("Signal") }.isEmpty,
                "listed but not registered by LiteRT: \(extra.sorted())")
    }
}

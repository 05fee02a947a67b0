import Foundation
import Testing
import TestSupport
@testable import TFLiteRuntime

/// The op-zoo models of the long-tail ops (the corpus's, and every model of
/// Tests/Fixtures/opzoo) with mutated bytes and random input values (indices, lengths, counts
/// far out of range): each variant loads, prepares and runs, or throws; the process never
/// traps. Raise the count with `TFLITE_FUZZ_ITERATIONS`.
@Suite struct LongTailFuzzTests {
    static let models = ["zoo_bitwise_misc", "zoo_conv3d", "zoo_cumsum_topk_onehot", "zoo_dynamic_shape", "zoo_embedding",
                         "zoo_fft", "zoo_lstm", "zoo_matrix_reverse", "zoo_nms", "zoo_segment_scatter", "zoo_segment_sum",
                         "zoo_select_where", "zoo_trig"]

    static var iterations: Int {
        ProcessInfo.processInfo.environment["TFLITE_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 600
    }

    static let interesting: [UInt32] = [0, 1, 2, 3, 7, 8, 0x7F, 0x80, 0xFF, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]

    /// Random bytes for an input, biased towards small and extreme integers.
    static func randomInput(_ byteCount: Int, _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        var i = 0
        while i < byteCount {
            let word: UInt32 = rng.next() % 3 == 0 ? interesting[Int(rng.next() % UInt64(interesting.count))] : UInt32(truncatingIfNeeded: rng.next() % 16)
            for b in 0..<4 where i + b < byteCount { bytes[i + b] = UInt8(truncatingIfNeeded: word >> (8 * UInt32(b))) }
            i += 4
        }
        return bytes
    }

    @Test func mutatedModelsAndInputsRunOrThrow() throws {
        let seeds = try Self.models.map { try Fixtures.corpusBytes("models/\($0).tflite") }
        Self.fuzz(seeds, label: "corpus", seed: 0x10_7A11)
    }

    @Test func mutatedOpZooModelsAndInputsRunOrThrow() throws {
        let folder = Fixtures.opZoo.appendingPathComponent("models")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tflite") }.sorted()
        let seeds = try names.map { [UInt8](try Data(contentsOf: folder.appendingPathComponent($0))) }
        try #require(!seeds.isEmpty)
        Self.fuzz(seeds, label: "op zoo", seed: 0x0B_200)
    }

    static func fuzz(_ seeds: [[UInt8]], label: String, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var ran = 0, threw = 0
        for iteration in 0..<Self.iterations {
            var bytes = seeds[iteration % seeds.count]
            // Half the variants keep the model and only randomise the inputs.
            if iteration % 2 == 1 {
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    let at = Int(rng.next() % UInt64(max(bytes.count - 4, 1)))
                    let word = Self.interesting[Int(rng.next() % UInt64(Self.interesting.count))]
                    for b in 0..<4 { bytes[at + b] = UInt8(truncatingIfNeeded: word >> (8 * UInt32(b))) }
                }
            }
            do {
                let model = try Model(bytes: bytes)
                var options = Interpreter.Options()
                options.memoryLimit = 64 << 20
                let interpreter = try Interpreter(model: model, options: options)
                try interpreter.allocateTensors()
                for i in 0..<interpreter.inputTensorCount {
                    let t = try interpreter.input(at: i)
                    try interpreter.copy(Self.randomInput(t.data.count, &rng), toInputAt: i)
                }
                try interpreter.invoke()
                ran += 1
            } catch {
                threw += 1
            }
        }
        print("LongTailFuzzTests (\(label)): \(ran) ran, \(threw) threw")
        #expect(ran + threw == Self.iterations)
        #expect(ran > 0)
    }
}

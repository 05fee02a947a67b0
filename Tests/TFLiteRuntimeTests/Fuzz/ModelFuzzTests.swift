import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// Mutated, truncated and spliced variants of the corpus models (``ByteMutator``): each is
/// refused at load or, once loaded (every buffer and constant it hands out readable), taken
/// through allocate and invoke (``FuzzHarness``); every stage runs or throws, the process never
/// crashes. A fixed seed keeps runs reproducible. Raise the count with
/// `TFLITE_FUZZ_ITERATIONS=100000 swift test -c release --filter ModelFuzzTests`
/// (see `Scripts/fuzz_models.sh`).
@Suite struct ModelFuzzTests {
    static let defaultIterations = 3_000

    static var iterations: Int { FuzzSettings.iterations(default: defaultIterations) }
    static var seed: UInt64 { FuzzSettings.seed(default: 0x7F1_17E) }

    /// The corpus models up to 700 KB (all but the largest few, which only slow the run).
    static func seedModels() throws -> [[UInt8]] {
        let directory = Fixtures.corpusFile("models").path
        return try FileManager.default.contentsOfDirectory(atPath: directory).sorted().compactMap { name in
            let bytes = try Fixtures.corpusBytes("models/" + name)
            return bytes.count <= 700_000 ? bytes : nil
        }
    }

    @Test func mutatedModelsRunOrThrow() throws {
        let seeds = try Self.seedModels()
        #expect(seeds.count > 90)
        var rng = SplitMix64(seed: Self.seed)
        var outcomes: [FuzzHarness.Outcome: Int] = [:]
        for _ in 0..<Self.iterations {
            let variant = ByteMutator.mutate(seeds, &rng)
            outcomes[FuzzHarness.exercise(variant, &rng, afterLoad: Self.touchEverything), default: 0] += 1
        }
        let summary = FuzzHarness.Outcome.allCases.map { "\(outcomes[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
        print("ModelFuzzTests: \(Self.iterations) variants (seed \(Self.seed)): \(summary)")
        #expect((outcomes[.rejectedAtLoad] ?? 0) > Self.iterations / 10, "mutations reach the checks")
        #expect((outcomes[.ran] ?? 0) > 0, "some mutations keep the model valid")
    }

    /// Reads what the runtime would read from a loaded model: every operator kind, every
    /// buffer's first and last byte, every constant, every metadata buffer.
    static func touchEverything(_ model: Model) {
        var sum = 0
        _ = model.operatorHistogram()
        for b in model.schema.buffers.indices {
            let data = model.bufferData(b)
            if let first = data.first, let last = data.last { sum &+= Int(first) &+ Int(last) }
        }
        for (s, subgraph) in model.schema.subgraphs.enumerated() {
            for t in subgraph.tensors.indices {
                if let data = model.constantData(subgraph: s, tensor: t), let last = data.last { sum &+= Int(last) }
            }
            for o in subgraph.operators.indices {
                if let options = model.customOptions(subgraph: s, operator: o), let last = options.last { sum &+= Int(last) }
            }
        }
        for entry in model.schema.metadata {
            if let name = entry.name, let data = model.metadataBuffer(named: name) { sum &+= data.count }
        }
        withExtendedLifetime(sum) {}
    }
}


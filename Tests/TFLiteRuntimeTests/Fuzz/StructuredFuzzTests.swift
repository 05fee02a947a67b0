import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// The small corpus models (one or a few ops each, covering most kernels) and the small peer
/// models (the integer LSTM and SVDF kernels, which no corpus model has) with their trusted
/// fields rewritten (``StructuredMutator``), each taken through load, allocate and invoke
/// (``FuzzHarness``): every variant runs or throws; the process never crashes. A fixed seed
/// keeps the suite reproducible; `Scripts/fuzz_structured.sh` runs it long.
@Suite struct StructuredFuzzTests {
    static let defaultIterations = 3_000

    static var iterations: Int { FuzzSettings.iterations(default: defaultIterations) }
    static var seed: UInt64 { FuzzSettings.seed(default: 0x5EED_F1E1D) }

    /// The corpus models under 10 KB and the peer models under 40 KB, with their field maps.
    static func seedModels() throws -> [(name: String, bytes: [UInt8], map: ModelFieldMap)] {
        func models(in folder: URL, upTo limit: Int) throws -> [(name: String, bytes: [UInt8], map: ModelFieldMap)] {
            let directory = folder.appendingPathComponent("models")
            return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().compactMap { name in
                let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
                return bytes.count <= limit ? (name, bytes, ModelFieldMap(bytes)) : nil
            }
        }
        return try models(in: Fixtures.corpus, upTo: 10_000) + models(in: Fixtures.peers, upTo: 40_000)
    }

    @Test func seedModelsMapTheirFields() throws {
        let seeds = try Self.seedModels()
        #expect(seeds.count > 70)
        for seed in seeds {
            #expect(seed.map.slots.contains { $0.kind == .dimension }, "\(seed.name)")
            #expect(seed.map.slots.contains { if case .tensorIndex = $0.kind { true } else { false } }, "\(seed.name)")
        }
        // The unmutated seeds all load and allocate: rejections come from the mutations. (An
        // invocation may still fail on the harness's random inputs, e.g. an index out of range.)
        var rng = SplitMix64(seed: Self.seed)
        for seed in seeds {
            let outcome = FuzzHarness.exercise(seed.bytes, &rng)
            #expect(outcome == .ran || outcome == .failedAtInvoke, "\(seed.name)")
        }
    }

    /// With `TFLITE_FUZZ_DUMP=DIR` the variants are written to DIR (00000.tflite, ...) instead
    /// of run, to triage them one process each (`tflite bench FILE --runs 1`).
    static let dumpDirectory = ProcessInfo.processInfo.environment["TFLITE_FUZZ_DUMP"]

    @Test func mutatedModelsRunOrThrow() throws {
        let seeds = try Self.seedModels()
        var rng = SplitMix64(seed: Self.seed)
        var outcomes: [FuzzHarness.Outcome: Int] = [:]
        for i in 0..<Self.iterations {
            let seed = seeds[Int(rng.next() % UInt64(seeds.count))]
            let variant = StructuredMutator.mutate(seed.bytes, map: seed.map, &rng)
            if let dumpDirectory = Self.dumpDirectory {
                let name = String(i).leftPadded(to: 5) + ".tflite"
                _ = FileManager.default.createFile(atPath: dumpDirectory + "/" + name, contents: Data(variant))
                continue
            }
            outcomes[FuzzHarness.exercise(variant, &rng), default: 0] += 1
        }
        if Self.dumpDirectory != nil { return }
        let summary = FuzzHarness.Outcome.allCases.map { "\(outcomes[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
        print("StructuredFuzzTests: \(Self.iterations) variants (seed \(Self.seed)): \(summary)")
        // Mutations reach every stage: some are caught at load, some at prepare, some still run.
        #expect((outcomes[.rejectedAtLoad] ?? 0) > 0)
        #expect((outcomes[.rejectedAtAllocate] ?? 0) > 0)
        #expect((outcomes[.ran] ?? 0) > Self.iterations / 10)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

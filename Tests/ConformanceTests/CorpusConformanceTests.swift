import Testing
import TestSupport
import TFLiteRuntime

/// Every case of the LiteRT corpus, run through the same path as `tflite run`
/// (`ModelRunner`) and compared with its golden under the manifest's tolerance.
@Suite struct CorpusConformanceTests {
    static let cases: [CorpusCase] = (try? CorpusCase.all()) ?? []

    @Test func manifestLoads() throws {
        #expect(try CorpusCase.all().count == 122)
    }

    @Test(arguments: cases)
    func matchesGolden(_ c: CorpusCase) throws {
        let inputs = try c.inputs.map { try NPYArray(contentsOf: Fixtures.corpusFile($0.file).path) }
        let outputs = try ModelRunner.run(modelPath: Fixtures.corpusFile(c.model).path, inputs: inputs,
                                          threads: 1, signature: c.signature)
        try #require(outputs.count == c.outputs.count, "output count")
        let goldens = try c.outputs.map { try NPYArray(contentsOf: Fixtures.corpusFile($0.file).path) }
        for (k, spec) in c.outputs.enumerated() {
            var rows: Int?
            if let valid = spec.validRows {
                try #require(valid.axis == 1)
                rows = Int(numericValues(goldens[valid.countFromOutput])[0])
            }
            let tolerance = spec.tolerance ?? CorpusCase.Tolerance(kind: "exact")
            let result = compare(outputs[k], golden: goldens[k], tolerance: tolerance, validRows: rows)
            #expect(result.failures.isEmpty, "\(c.caseName) output \(k) '\(spec.name)': \(result.failures.joined(separator: "; "))")
            if result.offByOne > 0 {
                print("conformance: \(c.caseName) output \(k): \(result.offByOne) element(s) differ by one unit")
            }
        }
    }
}

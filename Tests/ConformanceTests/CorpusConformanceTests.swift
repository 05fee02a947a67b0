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
        try expectMatchesReference(c, root: Fixtures.corpus)
    }
}

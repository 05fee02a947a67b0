import Foundation
import Testing
import TestSupport

/// One small model per op and type that the corpus does not cover, made by
/// Scripts/make_op_zoo.py, with outputs from LiteRT 2.3.0's reference kernels.
@Suite struct OpZooConformanceTests {
    static let cases: [CorpusCase] = (try? CorpusCase.all(in: Fixtures.opZoo)) ?? []

    @Test func manifestIsPresent() throws {
        #expect(try !CorpusCase.all(in: Fixtures.opZoo).isEmpty)
    }

    @Test(arguments: cases)
    func matchesReference(_ c: CorpusCase) throws {
        try expectMatchesReference(c, root: Fixtures.opZoo)
    }
}

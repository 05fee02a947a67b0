import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// Every corpus model loads, and what the loader reads agrees with what LiteRT's tooling
/// recorded in the manifest.
@Suite struct ModelCorpusTests {
    /// One entry per distinct model of the manifest.
    static let models: [CorpusCase] = {
        var seen = Set<String>()
        return ((try? CorpusCase.all()) ?? []).filter { seen.insert($0.model).inserted }
    }()

    @Test func manifestListsModels() {
        #expect(Self.models.count > 100)
    }

    @Test(arguments: models)
    func opHistogramMatchesManifest(_ corpusCase: CorpusCase) throws {
        let model = try Model(path: Fixtures.corpusFile(corpusCase.model).path)
        #expect(model.operatorHistogram() == corpusCase.ops)
        #expect(model.schema.subgraphs.count == corpusCase.subgraphs)
    }

    @Test(arguments: models)
    func bytesAndPathLoadAlike(_ corpusCase: CorpusCase) throws {
        let fromPath = try Model(path: Fixtures.corpusFile(corpusCase.model).path)
        let fromBytes = try Model(bytes: Fixtures.corpusBytes(corpusCase.model))
        #expect(fromPath.schema == fromBytes.schema)
    }
}

import Foundation
import Testing
import TestSupport

/// Cases of LiteRT's and TFLite Micro's own test suites (models from their repositories, outputs
/// from LiteRT 2.3.0 or from the peer test's stored expectation), copied by
/// Scripts/import_peer_cases.py for the features they alone exercise.
@Suite struct PeerConformanceTests {
    static let cases: [CorpusCase] = (try? CorpusCase.all(in: Fixtures.peers)) ?? []

    /// Every id listed in cases.txt made it into the manifest.
    @Test func manifestHoldsEveryListedCase() throws {
        let listed = try String(contentsOf: Fixtures.peers.appendingPathComponent("cases.txt"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0] }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(!listed.isEmpty)
        #expect(try CorpusCase.all(in: Fixtures.peers).count == listed.count)
    }

    @Test(arguments: cases)
    func matchesReference(_ c: CorpusCase) throws {
        try expectMatchesReference(c, root: Fixtures.peers)
    }
}

import Testing
@testable import TFLiteTasks

/// Weighted NMS against MediaPipe's NonMaxSuppressionCalculator on seeded synthetic detections.
@Suite struct WeightedNonMaxSuppressionTests {
    static let cases = (try? MediaPipeGoldens.load(MediaPipeGoldens.NMS.self, "nms.json"))?.cases ?? []

    @Test func goldensAreThere() {
        #expect(Self.cases.count == 5)
        // The cases merge: some clusters have more than one member.
        #expect(Self.cases.contains { $0.output.count < $0.input.count })
    }

    @Test(arguments: cases.map(\.name))
    func matchesMediaPipe(_ name: String) throws {
        let c = try #require(Self.cases.first { $0.name == name })
        let got = WeightedNonMaxSuppression(threshold: c.threshold).apply(c.input.map(\.relative))
        #expect(got.count == c.output.count, "\(name)")
        for (g, w) in zip(got, c.output.map(\.relative)) {
            // The score is the cluster's best, copied; the means are the same float sums in
            // the same order, so only the last bits may differ.
            #expect(g.score == w.score)
            let gv = [g.xMin, g.yMin, g.width, g.height], wv = [w.xMin, w.yMin, w.width, w.height]
            for k in 0..<4 { #expect(abs(gv[k] - wv[k]) <= 1e-6, "\(name): box \(gv) vs \(wv)") }
            #expect(g.keypoints.count == w.keypoints.count)
            for (a, b) in zip(g.keypoints, w.keypoints) {
                #expect(abs(a.x - b.x) <= 1e-6 && abs(a.y - b.y) <= 1e-6, "\(name): keypoint \(a) vs \(b)")
            }
        }
    }

    @Test func inputOrderDoesNotMatter() throws {
        // MediaPipe sorts by score first; scores in the cases are distinct.
        for c in Self.cases {
            let nms = WeightedNonMaxSuppression(threshold: c.threshold)
            let forward = nms.apply(c.input.map(\.relative))
            let backward = nms.apply(c.input.map(\.relative).reversed())
            #expect(forward == backward, "\(c.name)")
        }
    }

    @Test func noDetectionsGiveNone() {
        #expect(WeightedNonMaxSuppression().apply([]).isEmpty)
    }
}

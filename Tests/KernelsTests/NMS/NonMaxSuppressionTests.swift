import Foundation
import Testing
import Kernels

@Suite struct NonMaxSuppressionTests {
    // Box 0 and 1 overlap with IoU 1/3 (two unit-width boxes sharing half their length);
    // box 2 is far away; box 3 has no area.
    static let boxes: [Float] = [0, 0, 1, 2, 0, 1, 1, 3, 5, 5, 6, 6, 2, 2, 2, 4]

    func run(scores: [Float], maxOutputs: Int, iou: Float, threshold: Float, sigma: Float) -> ([Int32], [Float], Int) {
        let b = TestBuffer(Self.boxes), s = TestBuffer(scores)
        let indices = TestBuffer(repeating: Int32(-7), count: maxOutputs), selected = TestBuffer(repeating: Float.nan, count: maxOutputs)
        let n = NonMaxSuppression.run(boxes: b.constant, scores: s.constant, boxCount: 4, maxOutputs: maxOutputs, iouThreshold: iou,
                                      scoreThreshold: threshold, sigma: sigma, selectedIndices: indices.pointer,
                                      selectedScores: selected.pointer)
        return (indices.array, selected.array, n)
    }

    @Test func hardSuppressionDropsOverlapsAtTheThreshold() {
        let (indices, scores, n) = run(scores: [0.9, 0.8, 0.7, 0], maxOutputs: 5, iou: 1.0 / 3, threshold: 0, sigma: 0)
        // Box 1 meets the IoU threshold against box 0; box 3 is not above the score threshold.
        #expect(n == 2)
        #expect(indices == [0, 2, 0, 0, 0])
        #expect(scores == [0.9, 0.7, 0, 0, 0])
    }

    /// A selected box goes back into the queue and is normally dropped when compared with
    /// itself (IoU 1). A box without area has IoU 0 even with itself, so LiteRT selects it
    /// again until the output is full; the kernel reproduces that.
    @Test func zeroAreaBoxRepeatsAsInLiteRT() {
        let (indices, _, n) = run(scores: [0.9, 0.8, 0.7, 0.95], maxOutputs: 6, iou: 0.5, threshold: 0.1, sigma: 0)
        // Four candidates pass the score threshold, so at most four are selected.
        #expect(n == 4)
        #expect(indices == [3, 3, 3, 3, 0, 0])
    }

    @Test func scoreThresholdAndMaxOutputsLimitTheSelection() {
        #expect(run(scores: [0.9, 0.8, 0.7, 0.1], maxOutputs: 2, iou: 0.5, threshold: 0.1, sigma: 0).2 == 2)
        let (indices, _, n) = run(scores: [0.9, 0.8, 0.7, 0.1], maxOutputs: 4, iou: 0.5, threshold: 0.75, sigma: 0)
        #expect(n == 2)
        #expect(indices == [0, 1, 0, 0])
        #expect(run(scores: [0.9, 0.8, 0.7, 0.1], maxOutputs: 0, iou: 0.5, threshold: 0, sigma: 0).2 == 0)
    }

    @Test func softNMSDecaysOverlappingScores() {
        let sigma: Float = 0.05
        let (indices, scores, n) = run(scores: [0.9, 0.8, 0.7, 0], maxOutputs: 3, iou: 1, threshold: 0, sigma: sigma)
        // Box 1 keeps 0.8 * exp(-iou^2 / (2 sigma)) with iou = 1/3, which ranks below box 2.
        let decayed = Float(0.8 * Foundation.exp(-(1.0 / 9) / (2 * Double(sigma))))
        #expect(n == 3)
        #expect(indices == [0, 2, 1])
        #expect(abs(scores[2] - decayed) <= 1e-6)
        #expect(Array(scores[0...1]) == [0.9, 0.7])
    }
}

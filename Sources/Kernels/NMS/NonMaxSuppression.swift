#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// NON_MAX_SUPPRESSION_V4 and V5: greedy single-class selection of boxes by score, dropping
/// boxes that overlap an already selected one too much; V5 adds Soft-NMS (Gaussian score decay
/// with `sigma > 0`). Boxes are `[y1, x1, y2, x2]` corners in any order.
public enum NonMaxSuppression {
    /// Selects up to `maxOutputs` boxes. Writes the selected indices (and, when `selectedScores`
    /// is given, their possibly decayed scores) in selection order and zero after them, up to
    /// `maxOutputs` entries.
    /// - Returns: the number of boxes selected.
    public static func run(boxes: UnsafePointer<Float>, scores: UnsafePointer<Float>, boxCount: Int, maxOutputs: Int,
                           iouThreshold: Float, scoreThreshold: Float, sigma: Float,
                           selectedIndices: UnsafeMutablePointer<Int32>, selectedScores: UnsafeMutablePointer<Float>?) -> Int {
        struct Candidate { var index: Int; var score: Float; var suppressBegin: Int }
        // A max-queue by score; among equal scores the earlier box wins.
        var queue: [Candidate] = []
        for i in 0..<boxCount where scores[i] > scoreThreshold {
            queue.append(Candidate(index: i, score: scores[i], suppressBegin: 0))
        }
        func popBest() -> Candidate {
            var best = 0
            for k in 1..<Swift.max(1, queue.count) where queue[k].score > queue[best].score
                || (queue[k].score == queue[best].score && queue[k].index < queue[best].index) {
                best = k
            }
            return queue.remove(at: best)
        }
        let limit = Swift.min(queue.count, Swift.max(0, maxOutputs))
        let scale: Float = sigma > 0 ? -0.5 / sigma : 0
        var selected = 0
        while selected < limit && !queue.isEmpty {
            var candidate = popBest()
            let original = candidate.score
            var hardSuppress = false
            var j = selected - 1
            while j >= candidate.suppressBegin {
                let iou = intersectionOverUnion(boxes, candidate.index, Int(selectedIndices[j]))
                if iou >= iouThreshold { hardSuppress = true; break }
                if sigma > 0 { candidate.score *= expf(scale * iou * iou) }
                if candidate.score <= scoreThreshold { break }
                j -= 1
            }
            candidate.suppressBegin = selected
            if !hardSuppress {
                if candidate.score == original {
                    selectedIndices[selected] = Int32(truncatingIfNeeded: candidate.index)
                    selectedScores?[selected] = candidate.score
                    selected += 1
                }
                // A selected box goes back too, as in LiteRT: compared with itself next time
                // (IoU 1) it is dropped, but a box without area (IoU 0) is selected again.
                if candidate.score > scoreThreshold { queue.append(candidate) }
            }
        }
        for k in selected..<Swift.max(selected, maxOutputs) {
            selectedIndices[k] = 0
            selectedScores?[k] = 0
        }
        return selected
    }

    /// Intersection over union of boxes `i` and `j`; 0 when either box has no area.
    static func intersectionOverUnion(_ boxes: UnsafePointer<Float>, _ i: Int, _ j: Int) -> Float {
        let a = boxes + 4 * i, b = boxes + 4 * j
        let aymin = Swift.min(a[0], a[2]), aymax = Swift.max(a[0], a[2])
        let axmin = Swift.min(a[1], a[3]), axmax = Swift.max(a[1], a[3])
        let bymin = Swift.min(b[0], b[2]), bymax = Swift.max(b[0], b[2])
        let bxmin = Swift.min(b[1], b[3]), bxmax = Swift.max(b[1], b[3])
        let areaA = (aymax - aymin) * (axmax - axmin)
        let areaB = (bymax - bymin) * (bxmax - bxmin)
        if areaA <= 0 || areaB <= 0 { return 0 }
        let ih = Swift.max(Swift.min(aymax, bymax) - Swift.max(aymin, bymin), 0)
        let iw = Swift.max(Swift.min(axmax, bxmax) - Swift.max(axmin, bxmin), 0)
        let intersection = ih * iw
        let union = areaA + areaB - intersection
        return union == 0 ? 0 : intersection / union
    }
}

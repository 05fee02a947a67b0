/// TFLite's `TFLite_Detection_PostProcess`: decodes SSD box encodings against anchors, then
/// keeps the best-scoring non-overlapping boxes with fast (class-agnostic) or regular
/// (per-class) non-maximum suppression, reproducing TFLite's results exactly.
public enum DetectionPostProcess {
    /// The outputs, each `params.outputRows` rows (boxes: 4 floats a row, `(ymin, xmin, ymax,
    /// xmax)`), and the detection count. Rows past the count are zeroed.
    public struct Outputs {
        public var boxes: UnsafeMutablePointer<Float>
        public var classes: UnsafeMutablePointer<Float>
        public var scores: UnsafeMutablePointer<Float>
        public var count: UnsafeMutablePointer<Float>

        /// Wraps the four output buffers.
        public init(boxes: UnsafeMutablePointer<Float>, classes: UnsafeMutablePointer<Float>,
                    scores: UnsafeMutablePointer<Float>, count: UnsafeMutablePointer<Float>) {
            self.boxes = boxes
            self.classes = classes
            self.scores = scores
            self.count = count
        }
    }

    /// Runs NMS on decoded boxes.
    ///
    /// - Parameters:
    ///   - boxes: `numBoxes` decoded corner boxes (see ``decodeBoxes(encodings:codeSize:anchors:count:params:into:)``).
    ///   - scores: `numBoxes x classesWithBackground` class scores; when `classesWithBackground`
    ///     is `params.numClasses + 1` the first column is the background and is skipped.
    ///   - outputs: buffers of `params.outputRows` rows.
    ///   - workspace: ``workspaceBytes(params:numBoxes:)`` bytes of working memory.
    /// - Throws: ``DetectionPostProcessError/invertedBox(anchor:)`` for a box with min past max.
    /// Preconditions (checked by the caller at prepare time): `numBoxes >= 1`,
    /// `classesWithBackground - params.numClasses` is 0 or 1, counts and thresholds positive.
    public static func run(params: DetectionPostProcessParams, boxes: UnsafePointer<Float>, numBoxes: Int,
                           scores: UnsafePointer<Float>, classesWithBackground: Int,
                           outputs: Outputs, workspace: UnsafeMutableRawPointer) throws(DetectionPostProcessError) {
        for i in 0..<numBoxes {
            let b = boxes + i * 4
            if b[0] > b[2] || b[1] > b[3] { throw .invertedBox(anchor: i) }
        }
        let rows = params.outputRows
        outputs.boxes.update(repeating: 0, count: rows * 4)
        outputs.classes.update(repeating: 0, count: rows)
        outputs.scores.update(repeating: 0, count: rows)
        let memory = Workspace(workspace, params: params, numBoxes: numBoxes)
        if params.useRegularNMS {
            regular(params, boxes, numBoxes, scores, classesWithBackground, outputs, memory)
        } else {
            fast(params, boxes, numBoxes, scores, classesWithBackground, outputs, memory)
        }
    }

    /// Greedy NMS over one score per box (`scores`, `numBoxes` of them): candidates at or
    /// above the score threshold, visited by decreasing score (ties by box order), each
    /// suppressing later ones it overlaps. Writes the kept box indices, best first, to
    /// `memory.selected` and returns their count, at most `limit`.
    static func suppress(_ params: DetectionPostProcessParams, boxes: UnsafePointer<Float>,
                         scores: UnsafePointer<Float>, numBoxes: Int, limit: Int, _ memory: Workspace) -> Int {
        let candidates = memory.candidates, active = memory.active, selected = memory.selected
        var count = 0
        for i in 0..<numBoxes where scores[i] >= params.scoreThreshold {
            candidates[count] = i
            count += 1
        }
        ScoreSort.sortDecreasing(candidates, count: count, by: scores)
        let outputSize = min(count, limit)
        active.update(repeating: true, count: count)
        var activeCount = count
        var selectedCount = 0
        for i in 0..<count {
            if activeCount == 0 || selectedCount >= outputSize { break }
            guard active[i] else { continue }
            let box = candidates[i]
            selected[selectedCount] = box
            selectedCount += 1
            active[i] = false
            activeCount -= 1
            for j in (i + 1)..<count where active[j] {
                if intersectionOverUnion(boxes, box, candidates[j]) > params.iouThreshold {
                    active[j] = false
                    activeCount -= 1
                }
            }
        }
        return selectedCount
    }
}

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
    /// - Throws: ``DetectionPostProcessError/invertedBox(anchor:)`` for a box with min past max.
    /// Preconditions (checked by the caller at prepare time): `numBoxes >= 1`,
    /// `classesWithBackground - params.numClasses` is 0 or 1, counts and thresholds positive.
    public static func run(params: DetectionPostProcessParams, boxes: UnsafePointer<Float>, numBoxes: Int,
                           scores: UnsafePointer<Float>, classesWithBackground: Int,
                           outputs: Outputs) throws(DetectionPostProcessError) {
        for i in 0..<numBoxes {
            let b = boxes + i * 4
            if b[0] > b[2] || b[1] > b[3] { throw .invertedBox(anchor: i) }
        }
        let rows = params.outputRows
        outputs.boxes.update(repeating: 0, count: rows * 4)
        outputs.classes.update(repeating: 0, count: rows)
        outputs.scores.update(repeating: 0, count: rows)
        if params.useRegularNMS {
            regular(params, boxes, numBoxes, scores, classesWithBackground, outputs)
        } else {
            fast(params, boxes, numBoxes, scores, classesWithBackground, outputs)
        }
    }

    /// Greedy NMS over one score per box: candidates at or above the score threshold, visited
    /// by decreasing score (ties by box order), each suppressing later ones it overlaps.
    /// Returns the kept box indices, best first, at most `limit`.
    static func suppress(_ params: DetectionPostProcessParams, boxes: UnsafePointer<Float>,
                         scores: [Float], limit: Int) -> [Int] {
        var keptIndices: [Int] = [], keptScores: [Float] = []
        for (i, s) in scores.enumerated() where s >= params.scoreThreshold {
            keptIndices.append(i)
            keptScores.append(s)
        }
        let order = ScoreSort.stableDecreasing(keptScores)
        let outputSize = min(keptIndices.count, limit)
        var active = [Bool](repeating: true, count: keptIndices.count)
        var activeCount = keptIndices.count
        var selected: [Int] = []
        for i in 0..<keptIndices.count {
            if activeCount == 0 || selected.count >= outputSize { break }
            guard active[i] else { continue }
            let box = keptIndices[order[i]]
            selected.append(box)
            active[i] = false
            activeCount -= 1
            for j in (i + 1)..<max(keptIndices.count, i + 1) where active[j] {
                if intersectionOverUnion(boxes, box, keptIndices[order[j]]) > params.iouThreshold {
                    active[j] = false
                    activeCount -= 1
                }
            }
        }
        return selected
    }
}

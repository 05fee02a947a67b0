extension DetectionPostProcess {
    /// Fast NMS: each anchor competes with its best class score; a kept anchor reports its
    /// top `maxClassesPerDetection` classes in consecutive rows.
    static func fast(_ p: DetectionPostProcessParams, _ boxes: UnsafePointer<Float>, _ numBoxes: Int,
                     _ scores: UnsafePointer<Float>, _ stride: Int, _ out: Outputs, _ memory: Workspace) {
        let labelOffset = stride - p.numClasses
        let perAnchor = min(p.maxClassesPerDetection, p.numClasses)
        let maxScores = memory.boxScores, classOrder = memory.classOrder
        for row in 0..<numBoxes {
            let rowScores = scores + row * stride + labelOffset
            ScoreSort.partialDecreasing(rowScores, count: p.numClasses, k: perAnchor, indices: classOrder)
            maxScores[row] = rowScores[classOrder[0]]
        }
        let count = suppress(p, boxes: boxes, scores: maxScores, numBoxes: numBoxes, limit: p.maxDetections, memory)
        for n in 0..<count {
            let anchor = memory.selected[n]
            let rowScores = scores + anchor * stride + labelOffset
            // Ranked again for the few kept anchors rather than stored for every anchor.
            ScoreSort.partialDecreasing(rowScores, count: p.numClasses, k: perAnchor, indices: classOrder)
            for col in 0..<perAnchor {
                let row = p.maxClassesPerDetection * n + col
                let cls = classOrder[col]
                (out.boxes + row * 4).update(from: boxes + anchor * 4, count: 4)
                out.classes[row] = Float(cls)
                out.scores[row] = rowScores[cls]
            }
        }
        out.count[0] = Float(count)
    }

    /// Regular NMS: suppression per class (up to `min(detectionsPerClass, maxDetections)`
    /// each), each class's survivors merged into one best-first list of at most
    /// `maxDetections`. The merge is stable, earlier classes first among equal scores, as
    /// in TFLite's single-threaded path.
    static func regular(_ p: DetectionPostProcessParams, _ boxes: UnsafePointer<Float>, _ numBoxes: Int,
                        _ scores: UnsafePointer<Float>, _ stride: Int, _ out: Outputs, _ memory: Workspace) {
        let labelOffset = stride - p.numClasses
        let perClass = min(p.detectionsPerClass, p.maxDetections)
        let classScores = memory.boxScores, selected = memory.selected
        // Best first; each class's merge writes `next`, which then becomes `merged`.
        var merged = memory.merged, next = memory.next
        var mergedCount = 0
        for col in 0..<p.numClasses {
            for row in 0..<numBoxes { classScores[row] = scores[row * stride + col + labelOffset] }
            let selectedCount = suppress(p, boxes: boxes, scores: classScores, numBoxes: numBoxes, limit: perClass, memory)
            guard selectedCount > 0 else { continue }
            var i = 0, j = 0, k = 0
            while k < p.maxDetections && (i < mergedCount || j < selectedCount) {
                if j == selectedCount || (i < mergedCount && !(classScores[selected[j]] > merged[i].score)) {
                    next[k] = merged[i]
                    i += 1
                } else {
                    next[k] = Detection(anchor: selected[j], cls: col, score: classScores[selected[j]])
                    j += 1
                }
                k += 1
            }
            mergedCount = k
            swap(&merged, &next)
        }
        for r in 0..<mergedCount {
            let d = merged[r]
            (out.boxes + r * 4).update(from: boxes + d.anchor * 4, count: 4)
            out.classes[r] = Float(d.cls)
            out.scores[r] = d.score
        }
        out.count[0] = Float(mergedCount)
    }
}

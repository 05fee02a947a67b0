extension DetectionPostProcess {
    /// Fast NMS: each anchor competes with its best class score; a kept anchor reports its
    /// top `maxClassesPerDetection` classes in consecutive rows.
    static func fast(_ p: DetectionPostProcessParams, _ boxes: UnsafePointer<Float>, _ numBoxes: Int,
                     _ scores: UnsafePointer<Float>, _ stride: Int, _ out: Outputs) {
        let labelOffset = stride - p.numClasses
        let perAnchor = min(p.maxClassesPerDetection, p.numClasses)
        var maxScores = [Float](repeating: 0, count: numBoxes)
        var classOrder = [Int](repeating: 0, count: numBoxes * p.numClasses)
        classOrder.withUnsafeMutableBufferPointer { order in
            for row in 0..<numBoxes {
                let rowScores = scores + row * stride + labelOffset
                let rowOrder = order.baseAddress! + row * p.numClasses
                ScoreSort.partialDecreasing(rowScores, count: p.numClasses, k: perAnchor, indices: rowOrder)
                maxScores[row] = rowScores[rowOrder[0]]
            }
        }
        let selected = suppress(p, boxes: boxes, scores: maxScores, limit: p.maxDetections)
        for (n, anchor) in selected.enumerated() {
            let rowScores = scores + anchor * stride + labelOffset
            for col in 0..<perAnchor {
                let row = p.maxClassesPerDetection * n + col
                let cls = classOrder[anchor * p.numClasses + col]
                (out.boxes + row * 4).update(from: boxes + anchor * 4, count: 4)
                out.classes[row] = Float(cls)
                out.scores[row] = rowScores[cls]
            }
        }
        out.count[0] = Float(selected.count)
    }

    /// Regular NMS: suppression per class (up to `min(detectionsPerClass, maxDetections)`
    /// each), each class's survivors merged into one best-first list of at most
    /// `maxDetections`. The merge is stable, earlier classes first among equal scores, as
    /// in TFLite's single-threaded path.
    static func regular(_ p: DetectionPostProcessParams, _ boxes: UnsafePointer<Float>, _ numBoxes: Int,
                        _ scores: UnsafePointer<Float>, _ stride: Int, _ out: Outputs) {
        let labelOffset = stride - p.numClasses
        let perClass = min(p.detectionsPerClass, p.maxDetections)
        // (anchor, class, score), best first.
        var merged: [(anchor: Int, cls: Int, score: Float)] = []
        var classScores = [Float](repeating: 0, count: numBoxes)
        for col in 0..<p.numClasses {
            for row in 0..<numBoxes { classScores[row] = scores[row * stride + col + labelOffset] }
            let selected = suppress(p, boxes: boxes, scores: classScores, limit: perClass)
            guard !selected.isEmpty else { continue }
            var next: [(anchor: Int, cls: Int, score: Float)] = []
            next.reserveCapacity(merged.count + selected.count)
            var i = 0, j = 0
            while i < merged.count || j < selected.count {
                if j == selected.count || (i < merged.count && !(classScores[selected[j]] > merged[i].score)) {
                    next.append(merged[i])
                    i += 1
                } else {
                    next.append((selected[j], col, classScores[selected[j]]))
                    j += 1
                }
            }
            merged = Array(next.prefix(p.maxDetections))
        }
        for (r, d) in merged.enumerated() {
            (out.boxes + r * 4).update(from: boxes + d.anchor * 4, count: 4)
            out.classes[r] = Float(d.cls)
            out.scores[r] = d.score
        }
        out.count[0] = Float(merged.count)
    }
}

/// MediaPipe's `NonMaxSuppressionCalculator` with `algorithm: WEIGHTED` and
/// `overlap_type: INTERSECTION_OVER_UNION`, the suppression of its face detection graphs.
///
/// Detections are taken best score first. The best remaining one and every remaining
/// detection overlapping it by more than `threshold` (IoU) form a cluster; the cluster
/// becomes one detection with the best one's score and the score-weighted mean of the
/// cluster's box edges and keypoints, and leaves the pool. This repeats until the pool is
/// empty, or until a pass removes nothing: a box of zero area overlaps nothing, not even
/// itself, so when one is the best remaining, it is kept and the rest are dropped, as
/// MediaPipe does. Equal scores keep their input order (MediaPipe's sort leaves it open).
struct WeightedNonMaxSuppression: Sendable {
    /// Detections overlapping the cluster's best by more than this IoU join its cluster.
    var threshold: Float = 0.3

    func apply(_ detections: [RelativeDetection]) -> [RelativeDetection] {
        var remaining = detections.indices.sorted { detections[$0].score > detections[$1].score || (detections[$0].score == detections[$1].score && $0 < $1) }
        var out: [RelativeDetection] = []
        while let first = remaining.first {
            let best = detections[first]
            var cluster: [Int] = [], rest: [Int] = []
            for i in remaining {
                if Self.overlap(detections[i], best) > threshold { cluster.append(i) } else { rest.append(i) }
            }
            var merged = best
            if !cluster.isEmpty {
                var xMin: Float = 0, yMin: Float = 0, xMax: Float = 0, yMax: Float = 0, total: Float = 0
                var keypoints = [SIMD2<Float>](repeating: .zero, count: best.keypoints.count)
                for i in cluster {
                    let d = detections[i], s = d.score
                    total += s
                    xMin += d.xMin * s
                    yMin += d.yMin * s
                    xMax += d.xMax * s
                    yMax += d.yMax * s
                    for k in keypoints.indices where k < d.keypoints.count { keypoints[k] += d.keypoints[k] * s }
                }
                merged.xMin = xMin / total
                merged.yMin = yMin / total
                merged.width = xMax / total - merged.xMin
                merged.height = yMax / total - merged.yMin
                merged.keypoints = keypoints.map { $0 / total }
            }
            out.append(merged)
            // Nothing joined the cluster (a zero-area best box): MediaPipe stops here.
            if rest.count == remaining.count { break }
            remaining = rest
        }
        return out
    }

    /// Intersection over union of two boxes as MediaPipe's `OverlapSimilarity` computes it:
    /// 0 for boxes that do not touch or are inverted, and 0 when the union is empty.
    static func overlap(_ a: RelativeDetection, _ b: RelativeDetection) -> Float {
        guard a.xMin <= a.xMax, a.yMin <= a.yMax, b.xMin <= b.xMax, b.yMin <= b.yMax,
              !(b.xMax < a.xMin || a.xMax < b.xMin || b.yMax < a.yMin || a.yMax < b.yMin) else { return 0 }
        let intersection = (min(a.xMax, b.xMax) - max(a.xMin, b.xMin)) * (min(a.yMax, b.yMax) - max(a.yMin, b.yMin))
        let areaA = (a.xMax - a.xMin) * (a.yMax - a.yMin)
        let areaB = (b.xMax - b.xMin) * (b.yMax - b.yMin)
        let union = areaA + areaB - intersection
        return union > 0 ? intersection / union : 0
    }
}

import Foundation

/// Turns an SSD model's raw outputs into detections, as MediaPipe's
/// `TensorsToDetectionsCalculator` does on the CPU for a model without built-in post-processing
/// (its `reverse_output_order` box layout: x, y, w, h, then keypoints as x, y pairs).
///
/// Per anchor: the centre is `raw / scale * anchor size + anchor centre`, the size
/// `raw / scale * anchor size`; keypoints like the centre. The score is the sigmoid of the raw
/// score clipped to `±scoreClipping`. Detections scoring below `minScore`, of negative or NaN
/// size, or with a NaN score are dropped; the rest keep the anchors' order.
struct SSDBoxDecoder: Sendable {
    /// Values per anchor in the box tensor: 4 box values, then 2 per keypoint.
    var valuesPerAnchor = 16
    var keypointCount = 6
    /// The divisors of the raw centre and size values (the model input's size for BlazeFace).
    var xScale: Float = 128, yScale: Float = 128, widthScale: Float = 128, heightScale: Float = 128
    /// Raw scores are clipped to this magnitude before the sigmoid.
    var scoreClipping: Float = 100
    /// Detections scoring below this are dropped.
    var minScore: Float = 0.5

    /// Decodes `boxes` (`anchors.count x valuesPerAnchor`) and `scores` (one per anchor).
    func decode(boxes: [Float], scores: [Float], anchors: [SSDAnchor]) -> [RelativeDetection] {
        precondition(boxes.count == anchors.count * valuesPerAnchor && scores.count == anchors.count,
                     "box and score counts must match the anchors")
        precondition(4 + 2 * keypointCount <= valuesPerAnchor, "keypoints must fit the values per anchor")
        var out: [RelativeDetection] = []
        for (i, anchor) in anchors.enumerated() {
            let raw = min(max(scores[i], -scoreClipping), scoreClipping)
            let score = 1 / (1 + exp(-raw))
            guard score >= minScore else { continue }
            let o = i * valuesPerAnchor
            let xCenter = boxes[o] / xScale * anchor.width + anchor.xCenter
            let yCenter = boxes[o + 1] / yScale * anchor.height + anchor.yCenter
            let w = boxes[o + 2] / widthScale * anchor.width
            let h = boxes[o + 3] / heightScale * anchor.height
            let xMin = xCenter - w / 2, yMin = yCenter - h / 2
            let xMax = xCenter + w / 2, yMax = yCenter + h / 2
            // MediaPipe stores the size as max - min, and drops boxes the model turned inside out.
            let width = xMax - xMin, height = yMax - yMin
            guard width >= 0, height >= 0 else { continue }
            var keypoints: [SIMD2<Float>] = []
            keypoints.reserveCapacity(keypointCount)
            for k in 0..<keypointCount {
                let p = o + 4 + 2 * k
                keypoints.append(SIMD2(boxes[p] / xScale * anchor.width + anchor.xCenter,
                                       boxes[p + 1] / yScale * anchor.height + anchor.yCenter))
            }
            out.append(RelativeDetection(score: score, xMin: xMin, yMin: yMin, width: width, height: height, keypoints: keypoints))
        }
        return out
    }
}

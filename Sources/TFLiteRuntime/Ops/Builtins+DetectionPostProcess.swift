import FlatBuffers
import Kernels

/// The SSD post-processing custom op, `TFLite_Detection_PostProcess`.
extension OpRegistry {
    mutating func registerDetectionPostProcess() {
        register(custom: "TFLite_Detection_PostProcess", types: [.float32, .uInt8], prepareDetectionPostProcess)
    }
}

/// Reads the op's FlexBuffer options the way TFLite does: a missing key reads as zero, except
/// `detections_per_class` (100) and `use_regular_nms` (false).
private func detectionParams(_ ctx: PrepareContext) throws(InterpreterError) -> DetectionPostProcessParams {
    guard let bytes = ctx.customOptions, !bytes.isEmpty else { throw ctx.invalid("has no custom options") }
    do {
        let map = try FlexBuffer.root(of: bytes).map
        func int(_ key: String, _ fallback: Int64 = 0) throws(FlatBufferError) -> Int {
            guard let v = try map[key], !v.isNull else { return Int(fallback) }
            let value = try v.asInt
            guard value >= Int64(Int32.min), value <= Int64(Int32.max) else {
                throw FlatBufferError(.invalidValue, at: 0, "\(key) = \(value) does not fit 32 bits")
            }
            return Int(value)
        }
        func float(_ key: String) throws(FlatBufferError) -> Float {
            guard let v = try map[key], !v.isNull else { return 0 }
            return try v.asFloat
        }
        var regular = false
        if let v = try map["use_regular_nms"], !v.isNull { regular = try v.asBool }
        return DetectionPostProcessParams(
            maxDetections: try int("max_detections"), maxClassesPerDetection: try int("max_classes_per_detection"),
            detectionsPerClass: try int("detections_per_class", 100),
            scoreThreshold: try float("nms_score_threshold"), iouThreshold: try float("nms_iou_threshold"),
            numClasses: try int("num_classes"), useRegularNMS: regular,
            yScale: try float("y_scale"), xScale: try float("x_scale"), hScale: try float("h_scale"), wScale: try float("w_scale"))
    } catch {
        throw ctx.invalid("bad custom options: \(error)")
    }
}

private func prepareDetectionPostProcess(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 4...4)
    let p = try detectionParams(ctx)
    let encodings = try ctx.input(0), classScores = try ctx.input(1), anchors = try ctx.input(2)
    try ctx.requireType(input: 0, .float32, .uInt8)
    try ctx.requireType(input: 1, .float32, .uInt8)
    try ctx.requireType(input: 2, .float32, .uInt8)
    guard encodings.rank == 3, encodings.shape[0] == 1, encodings.shape[2] >= 4 else {
        throw ctx.invalid("box encodings must be [1, boxes, >=4], are \(encodings.shape)")
    }
    let numBoxes = encodings.shape[1], codeSize = encodings.shape[2]
    guard numBoxes >= 1 else { throw ctx.invalid("box encodings hold no boxes") }
    guard classScores.rank == 3, classScores.shape[0] == 1, classScores.shape[1] == numBoxes else {
        throw ctx.invalid("class predictions must be [1, \(numBoxes), classes], are \(classScores.shape)")
    }
    guard anchors.rank == 2, anchors.shape == [numBoxes, 4] else {
        throw ctx.invalid("anchors must be [\(numBoxes), 4], are \(anchors.shape)")
    }
    if encodings.type == .uInt8 && anchors.type != .uInt8 || encodings.type == .float32 && anchors.type != .float32 {
        throw ctx.unsupported("anchors of type \(anchors.type) with box encodings of type \(encodings.type)")
    }
    for (i, t) in [encodings, classScores, anchors].enumerated() where t.type == .uInt8 {
        guard let q = t.quantization, !q.isPerAxis else { throw ctx.invalid("uint8 input \(i) has no per-tensor quantization") }
    }
    let stride = classScores.shape[2]
    guard p.numClasses >= 1, stride >= p.numClasses, stride - p.numClasses <= 1 else {
        throw ctx.invalid("num_classes \(p.numClasses) does not fit \(stride) score columns (at most one background column)")
    }
    guard p.maxDetections >= 0 else { throw ctx.invalid("max_detections \(p.maxDetections) is negative") }
    guard p.maxClassesPerDetection >= 1 else { throw ctx.invalid("max_classes_per_detection must be positive, is \(p.maxClassesPerDetection)") }
    guard !p.useRegularNMS || p.detectionsPerClass >= 1 else {
        throw ctx.invalid("detections_per_class must be positive, is \(p.detectionsPerClass)")
    }
    guard p.iouThreshold > 0, p.iouThreshold <= 1 else { throw ctx.invalid("nms_iou_threshold \(p.iouThreshold) is not in (0, 1]") }
    let (rows, rowsOverflow) = p.maxDetections.multipliedReportingOverflow(by: p.maxClassesPerDetection)
    guard !rowsOverflow, rows <= 1 << 24 else { throw ctx.invalid("max_detections x max_classes_per_detection is too large") }
    for i in 0..<4 {
        guard try ctx.output(i).type == .float32 else { throw ctx.invalid("output \(i) must be FLOAT32, is \(try ctx.output(i).type)") }
    }
    try ctx.setOutputShape(0, [1, rows, 4])
    try ctx.setOutputShape(1, [1, rows])
    try ctx.setOutputShape(2, [1, rows])
    try ctx.setOutputShape(3, [1])

    // Scratch: decoded boxes, then float copies of uint8 inputs, then the NMS workspace.
    let boxFloats = numBoxes * 4
    let encodingFloats = encodings.type == .uInt8 ? numBoxes * codeSize : 0
    let anchorFloats = anchors.type == .uInt8 ? numBoxes * 4 : 0
    let scoreFloats = classScores.type == .uInt8 ? numBoxes * stride : 0
    let workspaceOffset = 4 * (boxFloats + encodingFloats + anchorFloats + scoreFloats)
    ctx.requestScratch(bytes: workspaceOffset + DetectionPostProcess.workspaceBytes(params: p, numBoxes: numBoxes))

    let ids = (enc: encodings.index, scores: classScores.index, anchors: anchors.index)
    let outs = try (0..<4).map { (i) throws(InterpreterError) -> Int in try ctx.output(i).index }
    let encType = encodings.type, scoreType = classScores.type
    let encQ = encodings.quantization, anchorQ = anchors.quantization, scoreQ = classScores.quantization
    let nodeIndex = ctx.nodeIndex, opName = ctx.opName
    return { c throws(InterpreterError) in
        let scratch = c.scratch.assumingMemoryBound(to: Float.self)
        let decoded = scratch
        var encodingData = UnsafePointer(c.data(ids.enc, as: Float.self))
        var anchorData = UnsafePointer(c.data(ids.anchors, as: Float.self))
        var scoreData = UnsafePointer(c.data(ids.scores, as: Float.self))
        if encType == .uInt8, let encQ, let anchorQ {
            let e = scratch + boxFloats, a = e + encodingFloats
            dequantizeBoxes(c.data(ids.enc, as: UInt8.self), count: numBoxes * codeSize, encQ, into: e)
            dequantizeBoxes(c.data(ids.anchors, as: UInt8.self), count: numBoxes * 4, anchorQ, into: a)
            encodingData = UnsafePointer(e)
            anchorData = UnsafePointer(a)
        }
        if scoreType == .uInt8, let scoreQ {
            let s = scratch + boxFloats + encodingFloats + anchorFloats
            let q = c.data(ids.scores, as: UInt8.self)
            // TFLite's Dequantize: the scale as a double times the integer difference.
            let scale = Double(scoreQ.scale), zero = scoreQ.zeroPoint
            for i in 0..<(numBoxes * stride) { s[i] = Float(scale * Double(Int(q[i]) - zero)) }
            scoreData = UnsafePointer(s)
        }
        DetectionPostProcess.decodeBoxes(encodings: encodingData, codeSize: codeSize, anchors: anchorData,
                                         count: numBoxes, params: p, into: decoded)
        let outputs = DetectionPostProcess.Outputs(
            boxes: c.data(outs[0], as: Float.self), classes: c.data(outs[1], as: Float.self),
            scores: c.data(outs[2], as: Float.self), count: c.data(outs[3], as: Float.self))
        do throws(DetectionPostProcessError) {
            try DetectionPostProcess.run(params: p, boxes: decoded, numBoxes: numBoxes, scores: scoreData,
                                         classesWithBackground: stride, outputs: outputs, workspace: c.scratch + workspaceOffset)
        } catch {
            throw InterpreterError.invokeFailed(node: nodeIndex, op: opName, reason: error.description)
        }
    }
}

/// Dequantises uint8 box values in float arithmetic, `(q - zeroPoint) * scale`, as TFLite does
/// for box encodings and anchors.
private func dequantizeBoxes(_ q: UnsafePointer<UInt8>, count: Int, _ params: QuantizationParameters,
                             into out: UnsafeMutablePointer<Float>) {
    let zero = Float(params.zeroPoint), scale = params.scale
    for i in 0..<count { out[i] = (Float(q[i]) - zero) * scale }
}

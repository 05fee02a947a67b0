import Kernels

/// NON_MAX_SUPPRESSION_V4 (padded indices and a count) and V5 (Soft-NMS, with selected
/// scores) in float32. The outputs have `max_output_size` entries (sized at run time when that
/// input is computed).
extension OpRegistry {
    mutating func registerNonMaxSuppressionOps() {
        register(.nonMaxSuppressionV4, types: [.float32], outputTypes: .checkedByOp) { (c) throws(InterpreterError) in try prepareNMS(&c, soft: false) }
        register(.nonMaxSuppressionV5, types: [.float32], outputTypes: .checkedByOp) { (c) throws(InterpreterError) in try prepareNMS(&c, soft: true) }
    }
}

private func prepareNMS(_ ctx: inout PrepareContext, soft: Bool) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: soft ? 6...6 : 5...5, outputs: soft ? 3...3 : 2...2)
    let boxes = try ctx.input(0), scores = try ctx.input(1)
    guard boxes.type == .float32, scores.type == .float32 else {
        throw ctx.unsupported("boxes and scores of types \(boxes.type), \(scores.type); only float32")
    }
    guard boxes.rank == 2, boxes.shape[1] == 4, scores.rank == 1, scores.shape[0] == boxes.shape[0] else {
        throw ctx.invalid("boxes \(boxes.shape) must be [n, 4] and scores \(scores.shape) [n]")
    }
    let maxInput = try RunTimeInteger(ctx, input: 2, what: "max_output_size")
    var staticMax: Int?
    if try ctx.input(2).isConstant {
        let m = try ctx.constantInteger(input: 2, what: "max_output_size")
        guard m >= 0 else { throw ctx.invalid("max_output_size \(m) is negative") }
        staticMax = m
    }
    var scalarIndices: [Int] = []
    for i in 3..<(soft ? 6 : 5) {
        let t = try ctx.input(i)
        guard t.type == .float32, t.elementCount == 1 else { throw ctx.invalid("input \(i) must be a float32 scalar, is \(t.type) \(t.shape)") }
        scalarIndices.append(t.index)
    }
    let indicesOut = try ctx.output(0), countOut = try ctx.output(soft ? 2 : 1)
    guard indicesOut.type == .int32, countOut.type == .int32 else { throw ctx.invalid("selected indices and count must be int32") }
    try ctx.setOutputShape(soft ? 2 : 1, [])
    var scoresOutIndex: Int?
    if soft {
        let scoresOut = try ctx.output(1)
        guard scoresOut.type == .float32 else { throw ctx.invalid("selected scores must be float32") }
        scoresOutIndex = scoresOut.index
    }
    for i in soft ? [0, 1] : [0] {
        if let m = staticMax { try ctx.setOutputShape(i, [m]) } else { try ctx.setOutputDynamic(i) }
    }
    let n = boxes.shape[0], bi = boxes.index, si = scores.index, ii = indicesOut.index, ci = countOut.index
    let fail = ctx.failure
    return { c throws(InterpreterError) in
        let iou = c.data(scalarIndices[0], as: Float.self)[0], threshold = c.data(scalarIndices[1], as: Float.self)[0]
        let sigma = soft ? c.data(scalarIndices[2], as: Float.self)[0] : 0
        guard iou >= 0, iou <= 1 else { throw fail("iou_threshold \(iou) is outside [0, 1]") }
        var maxOutputs = staticMax ?? 0, indicesOut = c.raw(ii), scoresOut = scoresOutIndex.map { c.raw($0) }
        if staticMax == nil {
            maxOutputs = maxInput.read(c)
            guard maxOutputs >= 0 else { throw fail("max_output_size \(maxOutputs) is negative") }
            indicesOut = try c.resize(ii, to: [maxOutputs])
            if let s = scoresOutIndex { scoresOut = try c.resize(s, to: [maxOutputs]) }
        }
        let selected = NonMaxSuppression.run(
            boxes: c.data(bi, as: Float.self), scores: c.data(si, as: Float.self), boxCount: n, maxOutputs: maxOutputs,
            iouThreshold: iou, scoreThreshold: threshold, sigma: sigma, selectedIndices: indicesOut.assumingMemoryBound(to: Int32.self),
            selectedScores: scoresOut?.assumingMemoryBound(to: Float.self))
        c.data(ci, as: Int32.self)[0] = Int32(selected)
    }
}

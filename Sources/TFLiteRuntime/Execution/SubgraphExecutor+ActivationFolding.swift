/// A float RELU, RELU6 or RELU_N1_TO_1 node folded into the node that feeds it.
///
/// selfie_segmentation runs 22 RELU nodes after its convolutions and face_detection_short_range
/// 16 after its residual ADDs: a whole-tensor pass each, 5-7% of those models. A CONV_2D,
/// DEPTHWISE_CONV_2D or ADD clamps its output anyway when it has a fused activation, so when
/// one without a fused activation feeds such an activation node and nothing else, the
/// activation node is dropped, and the producer writes the activation node's output with that
/// activation fused.
struct FoldedActivation {
    /// The tensor the producer writes instead: the activation node's output.
    let output: Int
    /// The activation the producer applies.
    let activation: Schema.ActivationFunctionType
}

extension SubgraphExecutor {
    /// When node `m` is a float RELU, RELU6 or RELU_N1_TO_1 whose input comes from a node that
    /// can apply it itself, that producer's node index and the fold; nil otherwise.
    func activationFold(node m: Int, links: GraphLinks) -> (producer: Int, fold: FoldedActivation)? {
        let graph = model.schema.subgraphs[subgraphIndex]
        let op = graph.operators[m]
        let activation: Schema.ActivationFunctionType
        switch model.operatorKind(ofCode: Int(op.opcodeIndex)) {
        case .builtin(.relu): activation = .relu
        case .builtin(.relu6): activation = .relu6
        case .builtin(.reluN1To1): activation = .reluN1To1
        default: return nil
        }
        guard !useReferenceKernels, op.inputs.count == 1, op.outputs.count == 1 else { return nil }
        let x = Int(op.inputs[0]), y = Int(op.outputs[0])
        // The producer's tensor disappears: only this node may read it, and the model must not
        // see it. An activation node writing a model input, a constant, a variable or a tensor
        // another node writes is an invalid node: left in place, it is refused as before.
        guard x >= 0, y >= 0, links.readers[x] == [m], !outputs.contains(x), !inputs.contains(x),
              !tensors[x].isVariable, !tensors[x].isWeight, !inputs.contains(y), !tensors[y].isWeight,
              !tensors[y].isVariable, links.writers[y] == [m], let producers = links.writers[x], producers.count == 1,
              producers[0] < m
        else { return nil }
        let producerNode = producers[0]
        let producer = graph.operators[producerNode]
        let producerKind = model.operatorKind(ofCode: Int(producer.opcodeIndex))
        let fused: Schema.ActivationFunctionType?
        switch (producerKind, producer.builtinOptions) {
        case (.builtin(.conv2d), .conv2DOptions(let o)?): fused = o.fusedActivationFunction
        case (.builtin(.depthwiseConv2d), .depthwiseConv2DOptions(let o)?): fused = o.fusedActivationFunction
        case (.builtin(.add), .addOptions(let o)?): fused = o.fusedActivationFunction
        // ADD's options are optional: without them it has no fused activation.
        case (.builtin(.add), nil): fused = Schema.ActivationFunctionType.none
        default: fused = nil
        }
        guard fused == Schema.ActivationFunctionType.none, producer.outputs.count == 1,
              tensors[x].type == .float32, tensors[y].type == .float32, tensors[x].modelShape == tensors[y].modelShape
        else { return nil }
        return (producerNode, FoldedActivation(output: y, activation: activation))
    }

    /// Node `n`'s output tensors (-1 for omitted ones), with a folded activation's output in
    /// place of the producer's own (``activationFolds``).
    func outputIndices(ofNode n: Int) -> [Int] {
        if let fold = activationFolds[n] { return [fold.output] }
        return model.schema.subgraphs[subgraphIndex].operators[n].outputs.map(Int.init)
    }
}

import Kernels

/// The zero padding of a PAD node folded into the convolution that reads its output.
///
/// MediaPipe's detectors pad explicitly before most VALID convolutions: face_detection_full_range
/// has 43 such PAD nodes, a whole-tensor copy each, about a seventh of its run time. A
/// convolution pads with zeros (the zero point when quantised) anyway, so when a PAD adds only
/// rows and columns of exactly that value and feeds one CONV_2D or DEPTHWISE_CONV_2D and
/// nothing else, the PAD is dropped and the convolution reads the PAD's input with the extra
/// rows and columns added to its own padding.
struct FoldedPad {
    /// The tensor the convolution reads instead: the PAD's input.
    let source: Int
    /// Rows added above and below.
    let height: AxisPadding
    /// Columns added left and right.
    let width: AxisPadding
}

/// Per tensor, the nodes that read it (once per reading input) and the nodes that write it:
/// what the folds (``FoldedPad``, ``FoldedActivation``) check before dropping a node.
struct GraphLinks {
    let readers: [Int: [Int]]
    let writers: [Int: [Int]]
}

extension SubgraphExecutor {
    /// When node `n` is a PAD that the single convolution reading its output can apply itself,
    /// that convolution's node index and the fold; nil otherwise.
    func padFold(node n: Int, links: GraphLinks) -> (consumer: Int, fold: FoldedPad)? {
        let graph = model.schema.subgraphs[subgraphIndex]
        let op = graph.operators[n]
        let kind = model.operatorKind(ofCode: Int(op.opcodeIndex))
        guard !useReferenceKernels, kind == .builtin(.pad) || kind == .builtin(.padv2),
              op.inputs.count >= 2, op.outputs.count == 1 else { return nil }
        let x = Int(op.inputs[0]), padded = Int(op.outputs[0])
        // A PAD writing a model input, a constant, a variable or a tensor another node writes
        // too is an invalid node: left in place, it is refused like any other such writer.
        guard x >= 0, padded >= 0, !outputs.contains(padded), !inputs.contains(padded), !tensors[padded].isWeight,
              !tensors[padded].isVariable, let consumers = links.readers[padded], consumers.count == 1,
              links.writers[padded] == [n]
        else { return nil }
        // The consumer must come later, or it would read the tensor the dropped PAD never wrote.
        let c = consumers[0], consumer = graph.operators[c]
        guard c > n else { return nil }
        let consumerKind = model.operatorKind(ofCode: Int(consumer.opcodeIndex))
        guard consumerKind == .builtin(.conv2d) || consumerKind == .builtin(.depthwiseConv2d),
              consumer.inputs.first.map(Int.init) == padded
        else { return nil }
        let source = tensors[x], target = tensors[padded]
        guard !source.isDynamic, !source.isConstant, source.shape.count == 4, source.type == target.type,
              source.type == .float32 || ([.int8, .uInt8].contains(source.type) && source.quantization == target.quantization)
        else { return nil }
        let context = PrepareContext(nodeIndex: n, opName: kind.name, options: op.builtinOptions, customOptions: nil,
                                     inputIndices: op.inputs.map(Int.init), outputIndices: [padded], executor: self)
        guard let pads = try? context.constantPairs(input: 1, rows: 4, what: "paddings"),
              pads[0] == PadAmount(before: 0, after: 0), pads[3] == PadAmount(before: 0, after: 0),
              padsWithConvolutionValue(context, type: source.type)
        else { return nil }
        return (c, FoldedPad(source: x, height: AxisPadding(before: pads[1].before, after: pads[1].after),
                             width: AxisPadding(before: pads[2].before, after: pads[2].after)))
    }

    /// Whether the PAD fills with what a convolution's padding holds: zero, or for quantised
    /// tensors the zero point. PAD without a value input always does; PADV2 only with a
    /// constant float zero.
    func padsWithConvolutionValue(_ context: PrepareContext, type: DataType) -> Bool {
        guard let value = context.optionalInput(2) else { return true }
        guard type == .float32, value.type == .float32, value.elementCount == 1, let data = value.constantData else { return false }
        return data.loadUnaligned(as: Float.self) == 0
    }
}

extension SubgraphExecutor {
    /// Node `n`'s input tensors (-1 for omitted ones), with a folded PAD's input in place of
    /// its output (``padFolds``).
    func inputIndices(ofNode n: Int) -> [Int] {
        var indices = model.schema.subgraphs[subgraphIndex].operators[n].inputs.map(Int.init)
        if let fold = padFolds[n] { indices[0] = fold.source }
        return indices
    }
}

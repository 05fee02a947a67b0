import Kernels

/// A float residual ADD folded into the CONV_2D that computes one of its operands.
///
/// Residual blocks end in `ADD(CONV_2D(...), skip)`: face_detection_short_range has 16 such
/// ADDs, mobilenet_v2 10, hand_landmark 10. Each is a pass over three whole tensors and, on
/// several threads, one more hand-over between the pool's threads. The convolution's GEMM
/// holds its results in registers when it stores them, so it adds the skip tensor there and
/// applies the ADD's activation (or the activation folded into the ADD, see
/// ``FoldedActivation``). The sum is rounded once, from the same two floats the ADD would
/// add, so the result is the unfolded one bit for bit.
///
/// The convolution then runs in the ADD's place in the execution order, writes the ADD's
/// output (recorded as a ``FoldedActivation`` of the convolution, which carries the output and
/// the activation) and reads `residual` as an extra input.
///
/// BlazeFace widens its skip connections with a PAD of zero channels before the ADD (11 of
/// face_detection_short_range's 16): when only the ADD reads that PAD, it folds too, and the
/// convolution adds the narrower tensor to its first channels (see `GEMMResidual`).
struct FoldedResidual {
    /// The tensor the convolution adds to its result: the ADD's other operand, or the input of
    /// the channel PAD that computed it.
    let residual: Int
    /// Zero channels the folded PAD appended to `residual`; 0 without one.
    let channelPadding: Int
    /// The folded PAD's node, dropped from the plan; nil without one.
    let padNode: Int?
}

extension SubgraphExecutor {
    /// When node `m` is a float ADD of two equally shaped tensors, one written by a CONV_2D
    /// without a fused activation that only this ADD reads: the convolution's node index, the
    /// fold, and the activation the convolution applies (the ADD's, or the one already folded
    /// into it). Nil otherwise. The convolution then runs in the ADD's place, where the other
    /// operand is ready (a skip connection is often padded or pooled after the convolution).
    ///
    /// Call after ``activationFolds`` is filled: a RELU folded into the ADD moves on to the
    /// convolution.
    func residualFold(node m: Int, links: GraphLinks)
        -> (producer: Int, fold: FoldedResidual, activation: FoldedActivation)? {
        let graph = model.schema.subgraphs[subgraphIndex]
        let op = graph.operators[m]
        guard !useReferenceKernels, model.operatorKind(ofCode: Int(op.opcodeIndex)) == .builtin(.add),
              op.inputs.count == 2, op.outputs.count == 1 else { return nil }
        let own: Schema.ActivationFunctionType
        switch op.builtinOptions {
        case .addOptions(let o)?: own = o.fusedActivationFunction
        // ADD's options are optional: without them it has no fused activation.
        case nil: own = .none
        default: return nil
        }
        let activation = activationFolds[m]?.activation ?? own
        let operands = op.inputs.map(Int.init)
        let y = outputIndices(ofNode: m)[0]
        // The convolution takes over writing `y` and must clamp like the ADD: SIGN_BIT and
        // TANH are not clamps. No broadcasting: both operands are shaped like the output.
        guard FusedActivation(activation).floatRange != nil, y >= 0, operands.allSatisfy({ $0 >= 0 }),
              operands[0] != operands[1], tensors[y].type == .float32,
              operands.allSatisfy({ tensors[$0].type == .float32 && tensors[$0].modelShape == tensors[y].modelShape })
        else { return nil }
        // The convolution runs in the ADD's place, where the other operand is ready. Either
        // operand may be a convolution's; with two candidates the later one folds.
        var chosen: (producer: Int, residual: Int)?
        for (i, x) in operands.enumerated() {
            guard let p = foldableConvolution(writing: x, readBy: m, links: links), p > (chosen?.producer ?? -1)
            else { continue }
            chosen = (p, operands[1 - i])
        }
        guard let chosen else { return nil }
        let fold = channelPad(writing: chosen.residual, readBy: m, links: links).map {
            FoldedResidual(residual: $0.source, channelPadding: $0.channels, padNode: $0.node)
        } ?? FoldedResidual(residual: chosen.residual, channelPadding: 0, padNode: nil)
        return (chosen.producer, fold, FoldedActivation(output: y, activation: activation))
    }

    /// When tensor `r` is written by a float PAD (or PADV2 with a zero value) that only
    /// appends zero channels to a rank-4 tensor, and only node `m` reads it: that PAD's node,
    /// its input and the channels it appends. Nil otherwise.
    private func channelPad(writing r: Int, readBy m: Int, links: GraphLinks) -> (node: Int, source: Int, channels: Int)? {
        guard links.readers[r] == [m], let writers = links.writers[r], writers.count == 1,
              !outputs.contains(r), !inputs.contains(r), !tensors[r].isVariable, !tensors[r].isWeight
        else { return nil }
        let q = writers[0], op = model.schema.subgraphs[subgraphIndex].operators[q]
        let kind = model.operatorKind(ofCode: Int(op.opcodeIndex))
        guard kind == .builtin(.pad) || kind == .builtin(.padv2), op.inputs.count >= 2, op.outputs.count == 1,
              op.inputs[0] >= 0
        else { return nil }
        let source = Int(op.inputs[0])
        guard tensors[source].type == .float32, !tensors[source].isVariable, tensors[source].modelShape.count == 4
        else { return nil }
        let context = PrepareContext(nodeIndex: q, opName: kind.name, options: op.builtinOptions, customOptions: nil,
                                     inputIndices: op.inputs.map(Int.init), outputIndices: [r], executor: self)
        guard let pads = try? context.constantPairs(input: 1, rows: 4, what: "paddings"),
              pads[0...2].allSatisfy({ $0 == PadAmount(before: 0, after: 0) }), pads[3].before == 0, pads[3].after > 0,
              padsWithConvolutionValue(context, type: .float32)
        else { return nil }
        return (q, source, pads[3].after)
    }

    /// The float CONV_2D without a fused activation that alone writes `x`, when only node `m`
    /// reads `x`, nothing outside the graph sees it, and the convolution may run at `m`
    /// instead (it reads no variable, which a node in between could assign); nil otherwise.
    private func foldableConvolution(writing x: Int, readBy m: Int, links: GraphLinks) -> Int? {
        guard links.readers[x] == [m], let writers = links.writers[x], writers.count == 1, writers[0] < m,
              !outputs.contains(x), !inputs.contains(x), !tensors[x].isVariable, !tensors[x].isWeight
        else { return nil }
        let p = writers[0], conv = model.schema.subgraphs[subgraphIndex].operators[p]
        // Float input and filter: the hybrid int8 kernels keep their ADD. A filter that is
        // not constant at prepare, or a grouped convolution, runs the reference kernel and adds
        // the residual after it.
        guard model.operatorKind(ofCode: Int(conv.opcodeIndex)) == .builtin(.conv2d),
              case .conv2DOptions(let o)? = conv.builtinOptions, o.fusedActivationFunction == .none,
              activationFolds[p] == nil, conv.outputs.count == 1, conv.inputs.count >= 2,
              conv.inputs[0] >= 0, conv.inputs[1] >= 0,
              !conv.inputs.contains(where: { $0 >= 0 && tensors[Int($0)].isVariable }),
              tensors[Int(conv.inputs[0])].type == .float32, tensors[Int(conv.inputs[1])].type == .float32
        else { return nil }
        return p
    }
}

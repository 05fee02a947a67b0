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
struct FoldedResidual {
    /// The tensor the convolution adds to its result: the ADD's other operand.
    let residual: Int
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
            guard let p = foldableConvolution(writing: x, readBy: m, links: links), p > (chosen?.producer ?? -1) else { continue }
            chosen = (p, operands[1 - i])
        }
        guard let chosen else { return nil }
        return (chosen.producer, FoldedResidual(residual: chosen.residual),
                FoldedActivation(output: y, activation: activation))
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
              conv.inputs[0] >= 0, conv.inputs[1] >= 0, !conv.inputs.contains(where: { $0 >= 0 && tensors[Int($0)].isVariable }),
              tensors[Int(conv.inputs[0])].type == .float32, tensors[Int(conv.inputs[1])].type == .float32
        else { return nil }
        return p
    }

}

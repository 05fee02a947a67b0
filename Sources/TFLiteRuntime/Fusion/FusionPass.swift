import Kernels

/// Per tensor, the nodes that read it (once per reading input) and the nodes that write it:
/// what the fusion pass checks before dropping a node.
struct GraphLinks {
    let readers: [Int: [Int]]
    let writers: [Int: [Int]]

    init(_ graph: Schema.SubGraph) {
        var readers: [Int: [Int]] = [:], writers: [Int: [Int]] = [:]
        for (n, op) in graph.operators.enumerated() {
            for t in op.inputs where t >= 0 { readers[Int(t), default: []].append(n) }
            for t in op.outputs where t >= 0 { writers[Int(t), default: []].append(n) }
        }
        self.readers = readers
        self.writers = writers
    }
}

/// Decides, before any node is prepared, which nodes fold into a neighbour that takes over
/// their work (see ``Fusion``): a node folds only into one whose registration accepts that
/// fusion, only when no other node and nothing outside the graph sees the tensor that
/// disappears, and only when the result stays bit for bit the unfolded one.
///
/// The reference kernels are the yardstick of the optimised ones: with them every node runs.
struct FusionPass {
    private unowned let executor: SubgraphExecutor
    private let graph: Schema.SubGraph
    private let links: GraphLinks

    /// The plan for `executor`'s subgraph with its current tensors. Call after
    /// `checkDataflow()`, which proves each tensor has at most one writer, running before its
    /// readers.
    static func plan(for executor: SubgraphExecutor) -> FusionPlan {
        guard executor.kernelChoice.optimizedKernels != nil else { return FusionPlan() }
        return FusionPass(executor).plan()
    }

    private init(_ executor: SubgraphExecutor) {
        self.executor = executor
        graph = executor.model.schema.subgraphs[executor.subgraphIndex]
        links = GraphLinks(graph)
    }

    private func plan() -> FusionPlan {
        var plan = FusionPlan()
        // Activation and ADD nodes come after their producers: RELUs first, since one folded
        // into an ADD moves on with the ADD.
        for m in graph.operators.indices {
            if let (producer, fold) = activationFold(node: m) {
                plan.activations[producer] = fold
                plan.dropped.insert(m)
            }
        }
        // A convolution with a residual ADD folded into it runs in the ADD's place.
        for m in graph.operators.indices {
            if let (producer, fold, activation) = residualFold(node: m, plan: plan) {
                plan.residuals[producer] = fold
                plan.activations[producer] = activation
                plan.activations[m] = nil
                plan.dropped.insert(producer)
                if let pad = fold.padNode { plan.dropped.insert(pad) }
                plan.replacements[m] = producer
            }
        }
        for n in graph.operators.indices {
            if let consumer = paddingCandidate(node: n) { plan.paddingCandidates[n] = consumer }
            if let (consumer, weights) = halfPrecisionFilter(node: n) {
                plan.halfPrecisionFilters[consumer] = weights
                plan.dropped.insert(n)
            }
        }
        return plan
    }

    private func kind(_ n: Int) -> Model.OperatorKind {
        executor.model.operatorKind(ofCode: Int(graph.operators[n].opcodeIndex))
    }

    /// Whether node `n`'s registration accepts `fusion`.
    private func accepts(_ n: Int, _ fusion: Fusion) -> Bool {
        executor.registry.registration(for: kind(n))?.fusions.contains(fusion) ?? false
    }

    /// The fused activation node `n`'s options name: NONE without options (ADD's are
    /// optional), nil for options that hold none.
    private func ownActivation(_ n: Int) -> Schema.ActivationFunctionType? {
        switch graph.operators[n].builtinOptions {
        case .conv2DOptions(let o)?: return o.fusedActivationFunction
        case .depthwiseConv2DOptions(let o)?: return o.fusedActivationFunction
        case .addOptions(let o)?: return o.fusedActivationFunction
        case nil: return Schema.ActivationFunctionType.none
        default: return nil
        }
    }

    /// Whether tensor `t` is private to the graph: no model input or output, no constant, no
    /// variable.
    private func isInternal(_ t: Int) -> Bool {
        let tensors = executor.tensors
        return !executor.outputs.contains(t) && !executor.inputs.contains(t) && !tensors[t].isVariable && !tensors[t].isWeight
    }

    // MARK: - Activation

    /// When node `m` is a float RELU, RELU6 or RELU_N1_TO_1 whose input comes from a node that
    /// accepts ``Fusion/activation`` and has no fused activation of its own, that producer's
    /// node index and the fold; nil otherwise.
    private func activationFold(node m: Int) -> (producer: Int, fold: FoldedActivation)? {
        let op = graph.operators[m]
        let activation: Schema.ActivationFunctionType
        switch kind(m) {
        case .builtin(.relu): activation = .relu
        case .builtin(.relu6): activation = .relu6
        case .builtin(.reluN1To1): activation = .reluN1To1
        default: return nil
        }
        guard op.inputs.count == 1, op.outputs.count == 1 else { return nil }
        let tensors = executor.tensors
        let x = Int(op.inputs[0]), y = Int(op.outputs[0])
        // The producer's tensor disappears: only this node may read it, and the model must not
        // see it. An activation node writing a model input, a constant, a variable or a tensor
        // another node writes is an invalid node: left in place, it is refused as before.
        guard x >= 0, y >= 0, links.readers[x] == [m], isInternal(x), !executor.inputs.contains(y), !tensors[y].isWeight,
              !tensors[y].isVariable, links.writers[y] == [m], let producers = links.writers[x], producers.count == 1,
              producers[0] < m
        else { return nil }
        let producer = producers[0]
        guard accepts(producer, .activation), ownActivation(producer) == Schema.ActivationFunctionType.none,
              graph.operators[producer].outputs.count == 1, tensors[x].type == .float32, tensors[y].type == .float32,
              tensors[x].modelShape == tensors[y].modelShape
        else { return nil }
        return (producer, FoldedActivation(output: y, activation: activation))
    }

    // MARK: - Residual ADD

    /// When node `m` is a float ADD of two equally shaped tensors, one written by a node that
    /// accepts ``Fusion/residualAdd``, has no fused activation and is read by this ADD alone:
    /// that node's index, the fold, and the activation it applies (the ADD's, or the one
    /// already folded into it). Nil otherwise. The convolution then runs in the ADD's place,
    /// where the other operand is ready (a skip connection is often padded or pooled after the
    /// convolution).
    private func residualFold(node m: Int, plan: FusionPlan)
        -> (producer: Int, fold: FoldedResidual, activation: FoldedActivation)? {
        let op = graph.operators[m]
        guard kind(m) == .builtin(.add), op.inputs.count == 2, op.outputs.count == 1 else { return nil }
        let own: Schema.ActivationFunctionType
        switch op.builtinOptions {
        case .addOptions(let o)?: own = o.fusedActivationFunction
        // ADD's options are optional: without them it has no fused activation.
        case nil: own = .none
        default: return nil
        }
        let activation = plan.activations[m]?.activation ?? own
        let operands = op.inputs.map(Int.init)
        let y = plan.outputs(ofNode: m, declared: op.outputs.map(Int.init))[0]
        let tensors = executor.tensors
        // The convolution takes over writing `y` and must clamp like the ADD: SIGN_BIT and
        // TANH are not clamps. No broadcasting: both operands are shaped like the output.
        guard FusedActivation(activation).floatRange != nil, y >= 0, operands.allSatisfy({ $0 >= 0 }),
              operands[0] != operands[1], tensors[y].type == .float32,
              operands.allSatisfy({ tensors[$0].type == .float32 && tensors[$0].modelShape == tensors[y].modelShape })
        else { return nil }
        // Either operand may be a convolution's; with two candidates the later one folds.
        var chosen: (producer: Int, residual: Int)?
        for (i, x) in operands.enumerated() {
            guard let p = foldableConvolution(writing: x, readBy: m, plan: plan), p > (chosen?.producer ?? -1)
            else { continue }
            chosen = (p, operands[1 - i])
        }
        guard let chosen else { return nil }
        let fold = channelPad(writing: chosen.residual, readBy: m).map {
            FoldedResidual(residual: $0.source, channelPadding: $0.channels, padNode: $0.node)
        } ?? FoldedResidual(residual: chosen.residual, channelPadding: 0, padNode: nil)
        return (chosen.producer, fold, FoldedActivation(output: y, activation: activation))
    }

    /// When tensor `r` is written by a float PAD (or PADV2 with a zero value) that only
    /// appends zero channels to a rank-4 tensor, and only node `m` reads it: that PAD's node,
    /// its input and the channels it appends. Nil otherwise.
    private func channelPad(writing r: Int, readBy m: Int) -> (node: Int, source: Int, channels: Int)? {
        guard links.readers[r] == [m], let writers = links.writers[r], writers.count == 1, isInternal(r) else { return nil }
        let q = writers[0], op = graph.operators[q]
        guard kind(q) == .builtin(.pad) || kind(q) == .builtin(.padv2), op.inputs.count >= 2, op.outputs.count == 1,
              op.inputs[0] >= 0
        else { return nil }
        let source = Int(op.inputs[0]), tensors = executor.tensors
        guard tensors[source].type == .float32, !tensors[source].isVariable, tensors[source].modelShape.count == 4
        else { return nil }
        let context = padContext(q, output: r)
        guard let pads = try? context.constantPairs(input: 1, rows: 4, what: "paddings"),
              pads[0...2].allSatisfy({ $0 == PadAmount(before: 0, after: 0) }), pads[3].before == 0, pads[3].after > 0,
              FusionPass.padsWithConvolutionValue(context, type: .float32)
        else { return nil }
        return (q, source, pads[3].after)
    }

    /// The float node without a fused activation that alone writes `x` and accepts
    /// ``Fusion/residualAdd``, when only node `m` reads `x`, nothing outside the graph sees it,
    /// and the node may run at `m` instead (it reads no variable, which a node in between could
    /// assign); nil otherwise.
    private func foldableConvolution(writing x: Int, readBy m: Int, plan: FusionPlan) -> Int? {
        guard links.readers[x] == [m], let writers = links.writers[x], writers.count == 1, writers[0] < m, isInternal(x)
        else { return nil }
        let p = writers[0], conv = graph.operators[p], tensors = executor.tensors
        // Float input and filter: the hybrid int8 kernels keep their ADD. A filter that is
        // not constant at prepare, or a grouped convolution, runs the reference kernel and adds
        // the residual after it. A node without options is refused by its prepare step, which
        // must run in the node's own place.
        guard accepts(p, .residualAdd), conv.builtinOptions != nil, ownActivation(p) == Schema.ActivationFunctionType.none,
              plan.activations[p] == nil, conv.outputs.count == 1, conv.inputs.count >= 2,
              conv.inputs[0] >= 0, conv.inputs[1] >= 0,
              !conv.inputs.contains(where: { $0 >= 0 && tensors[Int($0)].isVariable }),
              tensors[Int(conv.inputs[0])].type == .float32, tensors[Int(conv.inputs[1])].type == .float32
        else { return nil }
        return p
    }

    // MARK: - Float16 weights

    /// When node `n` is a DEQUANTIZE of a constant float16 tensor to float32 that only the
    /// filter (input 1) of a later float node accepting ``Fusion/halfPrecisionFilter`` reads:
    /// that node and the float16 tensor. Nil otherwise.
    private func halfPrecisionFilter(node n: Int) -> (consumer: Int, weights: Int)? {
        let op = graph.operators[n]
        guard kind(n) == .builtin(.dequantize), op.inputs.count == 1, op.outputs.count == 1 else { return nil }
        let x = Int(op.inputs[0]), y = Int(op.outputs[0]), tensors = executor.tensors
        guard x >= 0, y >= 0, tensors[x].type == .float16, tensors[x].isWeight, tensors[y].type == .float32,
              tensors[x].modelShape == tensors[y].modelShape, isInternal(y), links.writers[y] == [n],
              let readers = links.readers[y], readers.count == 1
        else { return nil }
        let c = readers[0], consumer = graph.operators[c]
        guard c > n, accepts(c, .halfPrecisionFilter), consumer.inputs.count >= 2, Int(consumer.inputs[1]) == y,
              consumer.inputs[0] >= 0, tensors[Int(consumer.inputs[0])].type == .float32
        else { return nil }
        return (c, x)
    }

    // MARK: - Padding

    /// When node `n` is a PAD whose output only a later node accepting ``Fusion/padding`` reads,
    /// as its input 0, with types that node pads with itself: that node. What depends on the
    /// nodes before the PAD is left to ``settledPadding(node:in:)``.
    private func paddingCandidate(node n: Int) -> Int? {
        let op = graph.operators[n]
        guard kind(n) == .builtin(.pad) || kind(n) == .builtin(.padv2), op.inputs.count >= 2, op.outputs.count == 1
        else { return nil }
        let x = Int(op.inputs[0]), padded = Int(op.outputs[0]), tensors = executor.tensors
        // A PAD writing a model input, a constant, a variable or a tensor another node writes
        // too is an invalid node: left in place, it is refused like any other such writer.
        guard x >= 0, padded >= 0, isInternal(padded), let consumers = links.readers[padded], consumers.count == 1,
              links.writers[padded] == [n]
        else { return nil }
        // The consumer must come later, or it would read the tensor the dropped PAD never wrote.
        let c = consumers[0]
        guard c > n, accepts(c, .padding), graph.operators[c].inputs.first.map(Int.init) == padded else { return nil }
        let source = tensors[x], target = tensors[padded]
        guard source.type == target.type,
              source.type == .float32 || ([.int8, .uInt8].contains(source.type) && source.quantization == target.quantization)
        else { return nil }
        return c
    }

    /// The padding PAD node `n` adds when, with the nodes before it prepared, its input is
    /// computed at run time with a static rank-4 shape and it pads only rows and columns with
    /// what a convolution pads with; nil otherwise (the PAD then runs).
    static func settledPadding(node n: Int, in executor: SubgraphExecutor) -> FoldedPad? {
        let op = executor.model.schema.subgraphs[executor.subgraphIndex].operators[n]
        let x = Int(op.inputs[0]), source = executor.tensors[x]
        guard !source.isDynamic, !source.isConstant, source.shape.count == 4 else { return nil }
        let context = PrepareContext(nodeIndex: n, opName: executor.model.operatorKind(ofCode: Int(op.opcodeIndex)).name,
                                     options: op.builtinOptions, customOptions: nil,
                                     inputIndices: op.inputs.map(Int.init), outputIndices: [Int(op.outputs[0])],
                                     executor: executor)
        guard let pads = try? context.constantPairs(input: 1, rows: 4, what: "paddings"),
              pads[0] == PadAmount(before: 0, after: 0), pads[3] == PadAmount(before: 0, after: 0),
              padsWithConvolutionValue(context, type: source.type)
        else { return nil }
        return FoldedPad(source: x, height: AxisPadding(before: pads[1].before, after: pads[1].after),
                         width: AxisPadding(before: pads[2].before, after: pads[2].after))
    }

    private func padContext(_ n: Int, output: Int) -> PrepareContext {
        let op = graph.operators[n]
        return PrepareContext(nodeIndex: n, opName: kind(n).name, options: op.builtinOptions, customOptions: nil,
                              inputIndices: op.inputs.map(Int.init), outputIndices: [output], executor: executor)
    }

    /// Whether the PAD fills with what a convolution's padding holds: zero, or for quantised
    /// tensors the zero point. PAD without a value input always does; PADV2 only with a
    /// constant float zero.
    private static func padsWithConvolutionValue(_ context: PrepareContext, type: DataType) -> Bool {
        guard let value = context.optionalInput(2) else { return true }
        guard type == .float32, value.type == .float32, value.elementCount == 1, let data = value.constantData else { return false }
        return data.loadUnaligned(as: Float.self) == 0
    }
}

extension FusionPlan {
    /// The node to prepare at `position` of the model's order, nil when none runs there. A
    /// PAD found foldable is settled here, once the nodes before it are prepared: folded, its
    /// padding goes to the node reading its output.
    mutating func node(at position: Int, in executor: SubgraphExecutor) -> Int? {
        if let consumer = paddingCandidates[position], let fold = FusionPass.settledPadding(node: position, in: executor) {
            padding[consumer] = fold
            return nil
        }
        if dropped.contains(position) { return nil }
        return replacements[position] ?? position
    }
}

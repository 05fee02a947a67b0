import Kernels

/// A neighbouring node an op can take over, saving a pass over whole tensors. An op's
/// registration lists the fusions its prepare step applies (``OpRegistration/fusions``); the
/// fusion pass (`FusionPass.swift`) decides which take place before any node is prepared.
enum Fusion: Hashable, Sendable {
    /// A float RELU, RELU6 or RELU_N1_TO_1 reading the node's output: the node applies it
    /// in place of its own fused activation (NONE) and writes the activation's output
    /// (``FoldedActivation``).
    case activation
    /// A PAD of zeros (the zero point when quantised) writing the node's input 0: the node
    /// reads the PAD's input and pads it itself (``FoldedPad``).
    case padding
    /// A float ADD of the node's output and another tensor: the node adds that tensor before
    /// its activation, and runs in the ADD's place (``FoldedResidual``).
    case residualAdd
    /// A DEQUANTIZE of constant float16 weights writing the node's filter (input 1): the node
    /// reads the float16 tensor and widens it itself (``FusionPlan/halfPrecisionFilters``).
    case halfPrecisionFilter
}

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

// A DEQUANTIZE of float16 weights folded into the float CONV_2D or FULLY_CONNECTED that reads
// them needs no struct: the node's filter becomes the float16 tensor.
//
// Converters store float16 weights behind a DEQUANTIZE (hand_landmark_lite has 102 of them,
// mobilenet_v2_fp16 105). Folded at prepare, each would widen its weights into a float32 tensor
// that the convolution then packs into a layout of its own, and the float32 copy would stay
// in memory unread: 4 MB for hand_landmark, whose fresh pages cost more than the widening.
// The node widens the weights into a buffer reused from node to node instead, and keeps a
// copy only when its kernel reads the filter while it runs.

/// What the fusion pass merged into one node, as its prepare step sees it; all nil for a node
/// that runs as the model writes it.
struct NodeFusions {
    /// The padding of a PAD folded in front of input 0, which the node applies itself (input 0
    /// is then the PAD's input).
    var padding: FoldedPad?
    /// The activation of a node folded after this one, to apply in place of its own (NONE).
    var activation: Schema.ActivationFunctionType?
    /// The residual ADD folded into this node: the tensor to add before the activation.
    var residual: FoldedResidual?
    /// Whether the node's filter (input 1) is the float16 input of a DEQUANTIZE folded into
    /// it, to be widened to float32 at prepare.
    var halfPrecisionFilter = false
}

/// The fusion pass's result, which `allocate()` follows: which node runs at each position of
/// the model's order, and what each running node took over from the nodes that do not run.
struct FusionPlan {
    /// Nodes that apply the padding of a PAD node dropped before them, by node index.
    var padding: [Int: FoldedPad] = [:]
    /// Nodes that apply the activation of a node dropped after them, and write its output, by
    /// node index.
    var activations: [Int: FoldedActivation] = [:]
    /// Nodes that add the operand of a residual ADD dropped after them, by node index.
    var residuals: [Int: FoldedResidual] = [:]
    /// Nodes whose filter is a float16 constant a dropped DEQUANTIZE widened: that tensor, by
    /// node index.
    var halfPrecisionFilters: [Int: Int] = [:]
    /// Nodes that do not run: their work is done by the node they were folded into.
    var dropped: Set<Int> = []
    /// Nodes that run at another node's position (a convolution in its residual ADD's place),
    /// by that position.
    var replacements: [Int: Int] = [:]
    /// PAD nodes the pass found foldable into the node reading their output, by PAD node: what
    /// still depends on the nodes before them (a constant or dynamic input, the paddings'
    /// values) is checked when `allocate()` reaches them (``FusionPlan/node(at:in:)``).
    var paddingCandidates: [Int: Int] = [:]

    /// What node `n`'s prepare step applies besides the node itself.
    func fusions(ofNode n: Int) -> NodeFusions {
        NodeFusions(padding: padding[n], activation: activations[n]?.activation, residual: residuals[n],
                    halfPrecisionFilter: halfPrecisionFilters[n] != nil)
    }

    /// Node `n`'s input tensors given its `declared` ones: a folded PAD's input in place of its
    /// output, a folded DEQUANTIZE's float16 weights in place of the filter.
    func inputs(ofNode n: Int, declared: [Int]) -> [Int] {
        var indices = declared
        if let fold = padding[n] { indices[0] = fold.source }
        if let weights = halfPrecisionFilters[n] { indices[1] = weights }
        return indices
    }

    /// Node `n`'s output tensors given its `declared` ones: a folded activation's output in
    /// place of the node's own.
    func outputs(ofNode n: Int, declared: [Int]) -> [Int] {
        activations[n].map { [$0.output] } ?? declared
    }

    /// The tensors node `n` reads beyond its inputs: a folded residual, which must stay live
    /// through the node.
    func extraInputs(ofNode n: Int) -> [Int] {
        residuals[n].map { [$0.residual] } ?? []
    }
}

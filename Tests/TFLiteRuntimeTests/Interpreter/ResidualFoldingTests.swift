import Testing
import TestSupport
@testable import TFLiteRuntime

/// Residual ADDs folded into the CONV_2D that computes one of their operands
/// (`FusionPass`). Whole models are also checked folded against the
/// reference kernels (which keep every node) by `ReferenceVersusOptimizedTests`, and against
/// LiteRT by the goldens.
@Suite struct ResidualFoldingTests {
    /// Every residual ADD of these models adds a convolution's output to a skip connection
    /// (padded or pooled after the convolution in face_detection_short_range): all fold, and
    /// the convolutions write the ADDs' outputs (or those of the RELUs folded into the ADDs).
    /// face_detection_short_range widens 11 of its skip connections with a channel PAD,
    /// which folds along.
    @Test(arguments: [("models/face_detection_short_range.tflite", 16, 11), ("models/mobilenet_v2_float.tflite", 10, 0),
                      ("models/hand_landmark_lite.tflite", 10, 0)])
    func residualAddsFoldIntoConvolutions(_ model: String, _ count: Int, _ pads: Int) throws {
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile(model).path)
        try interpreter.allocateTensors()
        let executor = interpreter.main
        #expect(executor.fusion.residuals.count == count)
        #expect(executor.fusion.residuals.values.filter { $0.padNode != nil }.count == pads)
        #expect(!interpreter.stepKinds.contains(.builtin(.add)) && !interpreter.stepKinds.contains(.builtin(.pad)))
        let graph = executor.model.schema.subgraphs[0]
        for node in executor.fusion.residuals.keys {
            #expect(executor.model.operatorKind(ofCode: Int(graph.operators[node].opcodeIndex)) == .builtin(.conv2d))
            #expect(executor.fusion.activations[node].map { [$0.output] } == executor.outputIndices(ofNode: node))
        }
        try interpreter.invoke()
    }

    /// The reference kernels are the yardstick of the optimised ones: they keep every node.
    @Test func referenceKernelsKeepTheAdds() throws {
        var options = Interpreter.Options()
        options.useReferenceKernels = true
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile("models/face_detection_short_range.tflite").path,
                                          options: options)
        try interpreter.allocateTensors()
        #expect(interpreter.main.fusion.residuals.isEmpty)
        #expect(interpreter.stepKinds.filter { $0 == .builtin(.add) }.count == 16)
    }

    /// One residual block: `relu6(conv(x) + s * s)`, or `relu6(conv(x) + pad(s))` with a
    /// PAD of zero channels, where the skip's node comes after the convolution in the graph, so
    /// the folded convolution must move to the ADD's place.
    private struct Block {
        var channels: Int
        var filterSize: Int
        var outputChannels = 20
        /// Input channels per filter: fewer than `channels` makes a grouped convolution.
        var filterChannels: Int?
        var convActivation: Schema.ActivationFunctionType = .none
        /// The skip's shape; nil for the output's.
        var skipShape: [Int32]?
        /// The convolution's output is also a model output (which keeps the ADD).
        var exposeConvolution = false
        /// The filter is a model input instead of a constant.
        var filterIsInput = false
        /// Zero channels a PAD appends to `s` (0: a MUL computes the skip instead).
        var channelPadding = 0
        let height: Int32 = 5, width: Int32 = 7

        var filterShape: [Int32] {
            [Int32(outputChannels), Int32(filterSize), Int32(filterSize), Int32(filterChannels ?? channels)]
        }
        var outputShape: [Int32] { [1, height, width, Int32(outputChannels)] }

        func interpreter() throws -> Interpreter {
            var m = TinyModel()
            m.codes = [TinyModel.Code(.conv2d), TinyModel.Code(channelPadding > 0 ? .pad : .mul), TinyModel.Code(.add)]
            let filterCount = Int(filterShape.reduce(1, *))
            m.buffers = [TinyModel.Buffer(),
                         TinyModel.Buffer(data: ResidualFoldingTests.values(filterCount, seed: 1).flatMap { littleEndianBytes($0.bitPattern) }),
                         TinyModel.Buffer(data: ResidualFoldingTests.values(outputChannels, seed: 2).flatMap { littleEndianBytes($0.bitPattern) }),
                         TinyModel.Buffer(data: [0, 0, 0, 0, 0, 0, 0, Int32(channelPadding)].flatMap(littleEndianBytes))]
            var sShape = skipShape ?? outputShape
            sShape[3] -= Int32(channelPadding)
            m.subgraphs[0].tensors = [
                TinyModel.Tensor(shape: [1, height, width, Int32(channels)], name: "x"),
                TinyModel.Tensor(shape: filterShape, buffer: filterIsInput ? 0 : 1, name: "filter"),
                TinyModel.Tensor(shape: [Int32(outputChannels)], buffer: 2, name: "bias"),
                TinyModel.Tensor(shape: outputShape, name: "conv"),
                TinyModel.Tensor(shape: sShape, name: "s"),
                TinyModel.Tensor(shape: skipShape ?? outputShape, name: "skip"),
                TinyModel.Tensor(shape: outputShape, name: "sum"),
                TinyModel.Tensor(shape: [4, 2], type: .int32, buffer: 3, name: "paddings"),
            ]
            m.subgraphs[0].inputs = filterIsInput ? [0, 4, 1] : [0, 4]
            m.subgraphs[0].outputs = exposeConvolution ? [6, 3] : [6]
            m.subgraphs[0].operators = [
                .init(opcodeIndex: 0, inputs: [0, 1, 2], outputs: [3],
                      options: .conv2DOptions(.init(padding: .same, strideW: 1, strideH: 1,
                                                    fusedActivationFunction: convActivation))),
                .init(opcodeIndex: 1, inputs: channelPadding > 0 ? [4, 7] : [4, 4], outputs: [5]),
                .init(opcodeIndex: 2, inputs: [3, 5], outputs: [6],
                      options: .addOptions(.init(fusedActivationFunction: .relu6))),
            ]
            let interpreter = try Interpreter(model: Model(bytes: m.bytes()))
            try interpreter.allocateTensors()
            try interpreter.copy(ResidualFoldingTests.values(Int(height * width) * channels, seed: 3, scale: 2), toInputAt: 0)
            let skipCount = Int(sShape.reduce(1, *))
            try interpreter.copy(ResidualFoldingTests.values(skipCount, seed: 4, scale: 2), toInputAt: 1)
            if filterIsInput { try interpreter.copy(ResidualFoldingTests.values(filterCount, seed: 1), toInputAt: 2) }
            try interpreter.invoke()
            return interpreter
        }
    }

    /// `count` floats in [-scale, scale) from a fixed linear congruential sequence.
    static func values(_ count: Int, seed: UInt64, scale: Float = 1) -> [Float] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Float(state >> 40) / Float(1 << 24) * 2 - 1) * scale
        }
    }

    /// Folded, each convolution path (small-channel rows, im2col, a pointwise GEMM deeper than
    /// one depth block, the reference kernel for a grouped convolution or a filter that is not
    /// constant) gives bit for bit what the same block gives with its ADD kept, which a model
    /// output on the convolution's result forces.
    ///
    /// With a channel PAD (appending 12 channels to 8, so the zeros cover part of one panel
    /// and whole panels on either instruction set), the PAD folds too.
    @Test(arguments: [(3, 3, nil, false, 0), (16, 3, nil, false, 0), (300, 1, nil, false, 0), (8, 3, 4, false, 0),
                      (16, 1, nil, true, 0), (3, 3, nil, false, 12), (16, 1, nil, false, 12), (16, 3, nil, false, 12),
                      (8, 3, 4, false, 12)])
    func foldedBlockMatchesTheUnfoldedOne(_ channels: Int, _ filterSize: Int, _ filterChannels: Int?, _ filterIsInput: Bool,
                                          _ channelPadding: Int) throws {
        var block = Block(channels: channels, filterSize: filterSize, filterChannels: filterChannels)
        block.filterIsInput = filterIsInput
        block.channelPadding = channelPadding
        let folded = try block.interpreter()
        block.exposeConvolution = true
        let unfolded = try block.interpreter()
        #expect(folded.main.fusion.residuals.count == 1)
        #expect(folded.main.fusion.residuals.values.first?.channelPadding == channelPadding)
        #expect(!folded.stepKinds.contains(.builtin(.add)) && !folded.stepKinds.contains(.builtin(.pad)))
        #expect(unfolded.main.fusion.residuals.isEmpty)
        let sum = try folded.output(at: 0).values(as: Float.self)
        #expect(sum == (try unfolded.output(at: 0).values(as: Float.self)))
        #expect(sum.contains { $0 == 6 } && sum.contains { $0 == 0 } && sum.contains { $0 > 0 && $0 < 6 })
    }

    /// No fold when the convolution clamps before the ADD or when the ADD broadcasts (nor when
    /// the convolution's output is a model output, as above); the ADD then runs as before.
    @Test func foldsOnlyPlainSameShapedResiduals() throws {
        var clamped = Block(channels: 16, filterSize: 3)
        clamped.convActivation = .relu
        var broadcast = Block(channels: 16, filterSize: 3)
        broadcast.skipShape = [1, 1, 1, 20]
        for block in [clamped, broadcast] {
            let interpreter = try block.interpreter()
            #expect(interpreter.main.fusion.residuals.isEmpty)
            #expect(interpreter.stepKinds.contains(.builtin(.add)))
        }
    }
}

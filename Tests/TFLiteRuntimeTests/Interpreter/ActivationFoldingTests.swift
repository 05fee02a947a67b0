import Testing
import TestSupport
@testable import TFLiteRuntime

/// RELU nodes folded into the convolution or ADD that feeds them
/// (`FusionPass`). That the folded model computes what the unfolded
/// one does is checked on whole models by `ReferenceVersusOptimizedTests` (the reference
/// kernels run every node) and by the goldens.
@Suite struct ActivationFoldingTests {
    /// face_detection_short_range has a RELU after each of its 16 residual ADDs and after its
    /// first convolution; selfie_segmentation after 16 convolutions and 6 depthwise ones.
    /// All fold, and the producers write the RELUs' outputs. (The residual ADDs fold on into
    /// convolutions, taking their RELUs along; selfie_segmentation's 5 foldable residual ADDs
    /// have no RELU and add folds with no activation.)
    @Test(arguments: [("models/face_detection_short_range.tflite", 17), ("models/selfie_segmentation.tflite", 22)])
    func relusFoldIntoTheirProducers(_ model: String, _ count: Int) throws {
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile(model).path)
        try interpreter.allocateTensors()
        let folds = interpreter.main.fusion.activations
        #expect(folds.values.filter { $0.activation == .relu }.count == count)
        #expect(!interpreter.stepKinds.contains(.builtin(.relu)))
        let graph = interpreter.main.model.schema.subgraphs[0]
        for (node, fold) in folds {
            let kind = interpreter.main.model.operatorKind(ofCode: Int(graph.operators[node].opcodeIndex))
            #expect([.builtin(.conv2d), .builtin(.depthwiseConv2d), .builtin(.add)].contains(kind))
            #expect(fold.activation == .relu || interpreter.main.fusion.residuals[node] != nil)
            #expect(interpreter.main.outputIndices(ofNode: node) == [fold.output])
        }
        try interpreter.invoke()
    }

    /// The reference kernels are the yardstick of the optimised ones: they keep every node.
    @Test func referenceKernelsKeepTheRelus() throws {
        var options = Interpreter.Options()
        options.useReferenceKernels = true
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile("models/face_detection_short_range.tflite").path,
                                          options: options)
        try interpreter.allocateTensors()
        #expect(interpreter.main.fusion.activations.isEmpty)
        #expect(interpreter.stepKinds.filter { $0 == .builtin(.relu) }.count == 17)
    }

    /// ADD then RELU6 on a tiny graph: folded, the output is the clamped sum; a RELU whose
    /// input is also a model output, or is read by another node too, stays.
    @Test func foldsOnlyWhenTheProducersTensorIsPrivate() throws {
        func model(outputs: [Int32], extraReader: Bool) throws -> Interpreter {
            var m = TinyModel()
            m.codes = [TinyModel.Code(.add), TinyModel.Code(.relu6), TinyModel.Code(.mul)]
            m.subgraphs[0].tensors = [
                TinyModel.Tensor(shape: [1, 2, 2, 3], name: "a"),
                TinyModel.Tensor(shape: [1, 2, 2, 3], name: "b"),
                TinyModel.Tensor(shape: [1, 2, 2, 3], name: "sum"),
                TinyModel.Tensor(shape: [1, 2, 2, 3], name: "y"),
                TinyModel.Tensor(shape: [1, 2, 2, 3], name: "z"),
            ]
            m.subgraphs[0].inputs = [0, 1]
            m.subgraphs[0].outputs = outputs
            m.subgraphs[0].operators = [
                .init(opcodeIndex: 0, inputs: [0, 1], outputs: [2]),
                .init(opcodeIndex: 1, inputs: [2], outputs: [3]),
            ] + (extraReader ? [.init(opcodeIndex: 2, inputs: [2, 3], outputs: [4])] : [])
            let interpreter = try Interpreter(model: Model(bytes: m.bytes()))
            try interpreter.allocateTensors()
            return interpreter
        }
        let a: [Float] = [-9, -1, 0, 0.5, 2, 5, 7, 3, -3, 1, 6, -0.25]
        let b: [Float] = [1, -2, 0, 1, 3, 2, -1, 4, 1, -1, 0.5, 0]
        let folded = try model(outputs: [3], extraReader: false)
        #expect(folded.main.fusion.activations.count == 1)
        try folded.copy(a, toInputAt: 0)
        try folded.copy(b, toInputAt: 1)
        try folded.invoke()
        #expect(try folded.output(at: 0).values(as: Float.self) == zip(a, b).map { min(max($0 + $1, 0), 6) })
        #expect(try model(outputs: [2, 3], extraReader: false).main.fusion.activations.isEmpty)
        #expect(try model(outputs: [4], extraReader: true).main.fusion.activations.isEmpty)
    }

    /// A node folds only into one whose registration accepts the fusion: this MUL, without
    /// options, has no fused activation of its own either, and everything else would let the
    /// RELU6 fold, but MUL's registration does not take it, so the RELU6 runs.
    @Test func foldsOnlyIntoRegistrationsThatAcceptIt() throws {
        #expect(OpRegistry.standard.registration(for: .builtin(.conv2d))?.fusions == [.activation, .padding, .residualAdd, .halfPrecisionFilter])
        #expect(OpRegistry.standard.registration(for: .builtin(.depthwiseConv2d))?.fusions == [.activation, .padding])
        #expect(OpRegistry.standard.registration(for: .builtin(.add))?.fusions == [.activation])
        #expect(OpRegistry.standard.registration(for: .builtin(.mul))?.fusions == [])
        var m = TinyModel()
        m.codes = [TinyModel.Code(.mul), TinyModel.Code(.relu6)]
        m.subgraphs[0].tensors = [
            TinyModel.Tensor(shape: [1, 2, 2, 3], name: "a"),
            TinyModel.Tensor(shape: [1, 2, 2, 3], name: "b"),
            TinyModel.Tensor(shape: [1, 2, 2, 3], name: "product"),
            TinyModel.Tensor(shape: [1, 2, 2, 3], name: "y"),
        ]
        m.subgraphs[0].inputs = [0, 1]
        m.subgraphs[0].outputs = [3]
        m.subgraphs[0].operators = [
            .init(opcodeIndex: 0, inputs: [0, 1], outputs: [2]),
            .init(opcodeIndex: 1, inputs: [2], outputs: [3]),
        ]
        let interpreter = try Interpreter(model: Model(bytes: m.bytes()))
        try interpreter.allocateTensors()
        #expect(interpreter.main.fusion.activations.isEmpty)
        #expect(interpreter.stepKinds.contains(.builtin(.relu6)))
    }
}

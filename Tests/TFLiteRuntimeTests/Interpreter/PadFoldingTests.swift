import Testing
import TestSupport
@testable import TFLiteRuntime

/// Spatial PAD nodes folded into the convolution that reads them (`FusionPass`).
/// That the folded model computes what the unfolded one does is checked on whole models by
/// `ReferenceVersusOptimizedTests` (the reference kernels run every PAD) and by the goldens.
@Suite struct PadFoldingTests {
    static let model = "models/face_detection_full_range_sparse.tflite"

    /// Every one of the model's 43 PAD nodes pads rows and columns with zeros in front of one
    /// convolution: none is left to run, and each of those convolutions reads the PAD's input.
    @Test func detectorPadsFoldIntoConvolutions() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile(Self.model).path)
        try interpreter.allocateTensors()
        #expect(interpreter.main.fusion.padding.count == 43)
        #expect(!interpreter.stepKinds.contains(.builtin(.pad)))
        let graph = interpreter.main.model.schema.subgraphs[0]
        for (node, fold) in interpreter.main.fusion.padding {
            let kind = interpreter.main.model.operatorKind(ofCode: Int(graph.operators[node].opcodeIndex))
            #expect(kind == .builtin(.conv2d) || kind == .builtin(.depthwiseConv2d))
            #expect(fold.height.before + fold.height.after + fold.width.before + fold.width.after > 0)
        }
        try interpreter.invoke()
    }

    /// A PAD whose output another node writes too never reaches the folding: the model is
    /// refused for its two writers before any node is prepared.
    @Test func padWritingAnotherNodesTensorIsRefused() throws {
        var m = TinyModel()
        m.codes = [TinyModel.Code(.add), TinyModel.Code(.pad), TinyModel.Code(.depthwiseConv2d)]
        let paddings: [Int32] = [0, 0, 1, 1, 1, 1, 0, 0]
        m.buffers = [TinyModel.Buffer(), TinyModel.Buffer(data: paddings.flatMap(littleEndianBytes)),
                     TinyModel.Buffer(data: [UInt8](repeating: 0, count: 4 * 9 * 2))]
        m.subgraphs[0].tensors = [
            TinyModel.Tensor(shape: [1, 4, 4, 2], name: "x"),
            TinyModel.Tensor(shape: [4, 2], type: .int32, buffer: 1, name: "paddings"),
            TinyModel.Tensor(shape: [1, 6, 6, 2], name: "padded"),
            TinyModel.Tensor(shape: [1, 3, 3, 2], buffer: 2, name: "filter"),
            TinyModel.Tensor(shape: [1, 4, 4, 2], name: "y"),
        ]
        m.subgraphs[0].inputs = [0]
        m.subgraphs[0].outputs = [4]
        m.subgraphs[0].operators = [
            .init(opcodeIndex: 0, inputs: [0, 0], outputs: [2]),
            .init(opcodeIndex: 1, inputs: [0, 1], outputs: [2]),
            .init(opcodeIndex: 2, inputs: [2, 3], outputs: [4]),
        ]
        let interpreter = try Interpreter(model: Model(bytes: m.bytes()))
        #expect(throws: InterpreterError.invalidNode(node: 1, op: "PAD", reason: "writes tensor 2 'padded', which an earlier node writes")) {
            try interpreter.allocateTensors()
        }
    }

    /// The reference kernels are the yardstick of the optimised ones: they keep every node.
    @Test func referenceKernelsKeepThePads() throws {
        var options = Interpreter.Options()
        options.useReferenceKernels = true
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile(Self.model).path, options: options)
        try interpreter.allocateTensors()
        #expect(interpreter.main.fusion.padding.isEmpty)
        #expect(interpreter.stepKinds.filter { $0 == .builtin(.pad) }.count == 43)
    }
}

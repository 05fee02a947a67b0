import Testing
import TestSupport
@testable import TFLiteRuntime

/// Spatial PAD nodes folded into the convolution that reads them (`SubgraphExecutor+PadFolding`).
/// That the folded model computes what the unfolded one does is checked on whole models by
/// `ReferenceVersusOptimizedTests` (the reference kernels run every PAD) and by the goldens.
@Suite struct PadFoldingTests {
    static let model = "models/face_detection_full_range_sparse.tflite"

    private func kinds(_ interpreter: Interpreter) -> [Model.OperatorKind] {
        let graph = interpreter.main.model.schema.subgraphs[0]
        return interpreter.main.steps.map { step in
            interpreter.main.model.operatorKind(ofCode: Int(graph.operators[step.node].opcodeIndex))
        }
    }

    /// Every one of the model's 43 PAD nodes pads rows and columns with zeros in front of one
    /// convolution: none is left to run, and each of those convolutions reads the PAD's input.
    @Test func detectorPadsFoldIntoConvolutions() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile(Self.model).path)
        try interpreter.allocateTensors()
        #expect(interpreter.main.padFolds.count == 43)
        #expect(!kinds(interpreter).contains(.builtin(.pad)))
        let graph = interpreter.main.model.schema.subgraphs[0]
        for (node, fold) in interpreter.main.padFolds {
            let kind = interpreter.main.model.operatorKind(ofCode: Int(graph.operators[node].opcodeIndex))
            #expect(kind == .builtin(.conv2d) || kind == .builtin(.depthwiseConv2d))
            #expect(fold.height.before + fold.height.after + fold.width.before + fold.width.after > 0)
        }
        try interpreter.invoke()
    }

    /// The reference kernels are the yardstick of the optimised ones: they keep every node.
    @Test func referenceKernelsKeepThePads() throws {
        var options = Interpreter.Options()
        options.useReferenceKernels = true
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile(Self.model).path, options: options)
        try interpreter.allocateTensors()
        #expect(interpreter.main.padFolds.isEmpty)
        #expect(kinds(interpreter).filter { $0 == .builtin(.pad) }.count == 43)
    }
}

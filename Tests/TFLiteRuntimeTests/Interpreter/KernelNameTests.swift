import Testing
import TestSupport
@testable import TFLiteRuntime

/// The kernel every node runs, by name (`Interpreter.nodeKernelNames`), as profiles and
/// `tflite inspect` print it.
@Suite struct KernelNameTests {
    static let models = ["models/mobilenet_v2_int8.tflite", "models/mobilenet_v2_float.tflite",
                         "models/selfie_segmentation.tflite", "models/ssd_detector_int8.tflite"]

    /// Every node that runs names its kernel; only nodes the fusion pass folded into a
    /// neighbour name none. With the reference kernels nothing is folded.
    @Test(arguments: models, [false, true])
    func everyNodeNamesItsKernel(_ model: String, reference: Bool) throws {
        var options = Interpreter.Options()
        options.useReferenceKernels = reference
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile(model).path, options: options)
        try interpreter.allocateTensors()
        let names = interpreter.nodeKernelNames
        #expect(names.count == interpreter.main.model.schema.subgraphs[0].operators.count)
        for step in interpreter.main.steps {
            #expect(names[step.node]?.isEmpty == false, "node \(step.node)")
        }
        if reference {
            #expect(names.allSatisfy { $0?.hasSuffix(".reference") == true }, "\(names)")
        }
    }

    /// With `useReferenceKernels` the convolutions run their reference kernels; otherwise the
    /// optimised ones of the interpreter's instruction-set variant.
    @Test(arguments: [("models/mobilenet_v2_int8.tflite", "i8"), ("models/mobilenet_v2_float.tflite", "f32")])
    func convolutionsNameTheirPath(_ model: String, type: String) throws {
        for reference in [false, true] {
            var options = Interpreter.Options()
            options.useReferenceKernels = reference
            let interpreter = try Interpreter(modelPath: Fixtures.corpusFile(model).path, options: options)
            try interpreter.allocateTensors()
            let graph = interpreter.main.model.schema.subgraphs[0]
            for (node, name) in interpreter.nodeKernelNames.enumerated() {
                let family: String
                switch interpreter.main.model.operatorKind(ofCode: Int(graph.operators[node].opcodeIndex)) {
                case .builtin(.conv2d): family = "conv2d"
                case .builtin(.depthwiseConv2d): family = "depthwise"
                default: continue
                }
                if reference {
                    #expect(name == "\(family).\(type).reference")
                } else {
                    #expect(name?.hasPrefix("\(family).\(type).") == true && name?.hasSuffix("/\(interpreter.instructionSet)") == true,
                            "\(name ?? "nil")")
                }
            }
        }
    }

    /// An op with one kernel is named by the one rule: family from the op's name, the type of
    /// its first input, `reference`.
    @Test func singleKernelOpsFollowTheRule() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile("models/mobilenet_v2_float.tflite").path)
        try interpreter.allocateTensors()
        let graph = interpreter.main.model.schema.subgraphs[0]
        let names = interpreter.nodeKernelNames
        let expected: [Model.OperatorKind: String] = [.builtin(.reshape): "reshape.f32.reference",
                                                       .builtin(.softmax): "softmax.f32.reference",
                                                       .builtin(.averagePool2d): "average-pool2d.f32.reference"]
        var checked = 0
        for (node, op) in graph.operators.enumerated() {
            guard let name = expected[interpreter.main.model.operatorKind(ofCode: Int(op.opcodeIndex))] else { continue }
            #expect(names[node] == name)
            checked += 1
        }
        #expect(checked > 0)
    }
}

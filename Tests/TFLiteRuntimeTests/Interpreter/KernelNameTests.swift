import Testing
import TestSupport
@testable import TFLiteRuntime

/// The kernel every node runs, by name (`Interpreter.nodeKernels`), as profiles and
/// `tflite inspect` print it.
@Suite struct KernelNameTests {
    static let models = ["models/mobilenet_v2_int8.tflite", "models/mobilenet_v2_float.tflite",
                         "models/selfie_segmentation.tflite", "models/ssd_detector_int8.tflite"]

    /// Every node names its kernel, except the nodes the fusion pass folded into a neighbour.
    /// With the reference kernels nothing is folded.
    @Test(arguments: models, [false, true])
    func everyNodeNamesItsKernel(_ model: String, reference: Bool) throws {
        var options = Interpreter.Options()
        options.useReferenceKernels = reference
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile(model).path, options: options)
        try interpreter.allocateTensors()
        let kernels = interpreter.nodeKernels
        #expect(kernels.count == interpreter.main.model.schema.subgraphs[0].operators.count)
        let running = Set(interpreter.main.steps.map(\.node))
        for (node, kernel) in kernels.enumerated() {
            // A node that does not run was computed once at prepare (named), or fused.
            let fused = kernel == .fused && !reference && !running.contains(node)
            #expect(kernel.name?.isEmpty == false || fused, "node \(node): \(kernel)")
        }
        if reference {
            #expect(kernels.allSatisfy { $0.name?.hasSuffix(".reference") == true }, "\(kernels)")
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
            for (node, kernel) in interpreter.nodeKernels.enumerated() {
                let name = kernel.name
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

    /// Hybrid convolutions (float activations, int8 weights) name both types, not only the
    /// input's: `conv2d.f32-i8.reference`, `depthwise.f32-i8.reference`, and with the
    /// optimised kernels `conv2d.f32-i8.quads/avx512vnni` and the like.
    @Test(arguments: [false, true])
    func hybridConvolutionsNameTheirWeightType(reference: Bool) throws {
        var options = Interpreter.Options()
        options.useReferenceKernels = reference
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile("models/mobilenet_v2_dynamic.tflite").path, options: options)
        try interpreter.allocateTensors()
        let graph = interpreter.main.model.schema.subgraphs[0]
        var hybrid = 0
        for (node, kernel) in interpreter.nodeKernels.enumerated() {
            let family: String
            switch interpreter.main.model.operatorKind(ofCode: Int(graph.operators[node].opcodeIndex)) {
            case .builtin(.conv2d): family = "conv2d"
            case .builtin(.depthwiseConv2d): family = "depthwise"
            default: continue
            }
            if graph.tensors[Int(graph.operators[node].inputs[1])].type == .int8 {
                hybrid += 1
                let name = kernel.name ?? ""
                #expect(name.hasPrefix("\(family).f32-i8.") && name.hasSuffix(".reference") == reference, "node \(node): \(name)")
            } else {
                #expect(kernel.name?.hasPrefix("\(family).f32.") == true, "node \(node): \(kernel)")
            }
        }
        #expect(hybrid > 0)
    }

    /// An op with one kernel is named by the one rule: family from the op's name, the type of
    /// its first input, `reference`.
    @Test func singleKernelOpsFollowTheRule() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile("models/mobilenet_v2_float.tflite").path)
        try interpreter.allocateTensors()
        let graph = interpreter.main.model.schema.subgraphs[0]
        let names = interpreter.nodeKernels.map(\.name)
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

    /// A node whose input shapes depend on values is named once a run has prepared it.
    @Test func nodesPreparedWhenRunAreNamedAfterTheRun() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile("models/zoo_dynamic_shape.tflite").path)
        #expect(interpreter.nodeKernels.allSatisfy { $0 == .unallocated })
        try interpreter.allocateTensors()
        let pending = interpreter.nodeKernels.indices.filter { interpreter.nodeKernels[$0] == .preparedWhenRun }
        #expect(!pending.isEmpty)
        try interpreter.invoke()
        for node in pending {
            #expect(interpreter.nodeKernels[node].name?.isEmpty == false)
        }
    }
}

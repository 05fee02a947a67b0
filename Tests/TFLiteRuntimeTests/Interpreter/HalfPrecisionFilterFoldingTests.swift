import Testing
import TestSupport
@testable import TFLiteRuntime

/// DEQUANTIZE nodes of float16 weights folded into the float CONV_2D or FULLY_CONNECTED that
/// reads them (`FusionPass`): the node widens the weights at prepare. Widening is exact, so a
/// model with float16 weights must compute exactly what the same model with those values
/// stored as float32 computes.
@Suite struct HalfPrecisionFilterFoldingTests {
    /// Weights exactly representable in float16 (multiples of 1/64 in [-2, 2]).
    static func weights(_ count: Int, seed: Int) -> [Float] {
        (0..<count).map { Float(((($0 + seed) * 37) % 257) - 128) / 64 }
    }

    static func inputs(_ count: Int) -> [Float] {
        (0..<count).map { Float(($0 * 13) % 31) / 8 - 2 }
    }

    enum Consumer {
        /// 3x3 CONV_2D, 4 to 6 channels: the optimised kernel packs its weights.
        case conv
        /// The same with 2 groups (filter of 2 channels), which runs the reference kernel,
        /// reading its filter while it runs.
        case groupedConv
        /// FULLY_CONNECTED of 24 inputs to 5 outputs.
        case fullyConnected
    }

    /// One consumer node reading `filter` (through a DEQUANTIZE of float16 weights when
    /// `half`), and with `extraReader` a MUL also reading the DEQUANTIZE's output.
    static func model(_ consumer: Consumer, half: Bool, extraReader: Bool = false) throws -> Interpreter {
        let (inputShape, filterShape, outputShape): ([Int32], [Int32], [Int32])
        let options: Schema.BuiltinOptions
        let code: Schema.BuiltinOperator
        switch consumer {
        case .conv, .groupedConv:
            let filterChannels: Int32 = consumer == .conv ? 4 : 2
            (inputShape, filterShape, outputShape) = ([1, 5, 5, 4], [6, 3, 3, filterChannels], [1, 5, 5, 6])
            options = .conv2DOptions(.init(padding: .same, strideW: 1, strideH: 1))
            code = .conv2d
        case .fullyConnected:
            (inputShape, filterShape, outputShape) = ([2, 24], [5, 24], [2, 5])
            options = .fullyConnectedOptions(.init())
            code = .fullyConnected
        }
        let count = filterShape.reduce(1) { $0 * Int($1) }
        let values = weights(count, seed: 3)
        var m = TinyModel()
        m.codes = [TinyModel.Code(code), TinyModel.Code(.dequantize), TinyModel.Code(.mul)]
        let stored = half ? values.flatMap { littleEndianBytes(Float16($0).bitPattern) } : values.flatMap { littleEndianBytes($0.bitPattern) }
        m.buffers = [TinyModel.Buffer(), TinyModel.Buffer(data: stored)]
        m.subgraphs[0].tensors = [
            TinyModel.Tensor(shape: inputShape, name: "x"),
            TinyModel.Tensor(shape: filterShape, type: half ? .float16 : .float32, buffer: 1, name: "stored"),
            TinyModel.Tensor(shape: filterShape, name: "filter"),
            TinyModel.Tensor(shape: outputShape, name: "y"),
            TinyModel.Tensor(shape: filterShape, name: "squared"),
        ]
        m.subgraphs[0].inputs = [0]
        m.subgraphs[0].outputs = extraReader ? [3, 4] : [3]
        let filter: Int32 = half ? 2 : 1
        m.subgraphs[0].operators = (half ? [.init(opcodeIndex: 1, inputs: [1], outputs: [2])] : [])
            + [.init(opcodeIndex: 0, inputs: [0, filter], outputs: [3], options: options)]
            + (extraReader ? [.init(opcodeIndex: 2, inputs: [filter, filter], outputs: [4])] : [])
        let interpreter = try Interpreter(model: Model(bytes: m.bytes()))
        try interpreter.allocateTensors()
        try interpreter.copy(inputs(inputShape.reduce(1) { $0 * Int($1) }), toInputAt: 0)
        try interpreter.invoke()
        return interpreter
    }

    @Test(arguments: [Consumer.conv, .groupedConv, .fullyConnected])
    func float16WeightsFoldAndGiveTheFloat32Result(_ consumer: Consumer) throws {
        let folded = try Self.model(consumer, half: true)
        #expect(folded.main.fusion.halfPrecisionFilters == [1: 1])
        #expect(folded.main.inputIndices(ofNode: 1) == [0, 1])
        let plain = try Self.model(consumer, half: false)
        #expect(try folded.output(at: 0).values(as: Float.self) == plain.output(at: 0).values(as: Float.self))
    }

    /// A DEQUANTIZE whose output another node reads too stays, and so does every one under the
    /// reference kernels.
    @Test func foldsOnlyWhenTheFilterIsTheOnlyReader() throws {
        let shared = try Self.model(.conv, half: true, extraReader: true)
        #expect(shared.main.fusion.halfPrecisionFilters.isEmpty)
        #expect(shared.main.inputIndices(ofNode: 1) == [0, 2])
        let plain = try Self.model(.conv, half: false, extraReader: true)
        #expect(try shared.output(at: 0).values(as: Float.self) == plain.output(at: 0).values(as: Float.self))
        var options = Interpreter.Options()
        options.useReferenceKernels = true
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile("models/mobilenet_v2_fp16.tflite").path, options: options)
        try interpreter.allocateTensors()
        #expect(interpreter.main.fusion.halfPrecisionFilters.isEmpty)
    }

    /// mobilenet_v2_fp16 stores every weight as float16: each CONV_2D and the FULLY_CONNECTED
    /// read theirs directly, and the depthwise filters and the biases stay behind DEQUANTIZE
    /// nodes, folded at prepare.
    @Test func mobilenetReadsItsFloat16WeightsDirectly() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile("models/mobilenet_v2_fp16.tflite").path)
        try interpreter.allocateTensors()
        let graph = interpreter.main.model.schema.subgraphs[0]
        let consumers = Set(interpreter.main.fusion.halfPrecisionFilters.keys.map {
            interpreter.main.model.operatorKind(ofCode: Int(graph.operators[$0].opcodeIndex))
        })
        #expect(consumers == [.builtin(.conv2d), .builtin(.fullyConnected)])
        let convolutions = graph.operators.filter {
            [.builtin(.conv2d), .builtin(.fullyConnected)].contains(interpreter.main.model.operatorKind(ofCode: Int($0.opcodeIndex)))
        }
        #expect(interpreter.main.fusion.halfPrecisionFilters.count == convolutions.count)
        try interpreter.invoke()
    }
}

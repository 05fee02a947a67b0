import Testing
@testable import TFLiteRuntime

/// One model per class of hostile graph the structure-aware fuzzer found: each is refused
/// with an error naming the node or tensor, or (an input holding constant data) run safely.
/// The default ``TinyModel`` is `t2 = ADD(t0, t1)` with inputs t0, t1 and output t2.
@Suite struct HostileGraphTests {
    static func allocationError(_ m: TinyModel) throws -> InterpreterError? {
        let interpreter = try Interpreter(model: Model(bytes: m.bytes()))
        do {
            try interpreter.allocateTensors()
            return nil
        } catch {
            return error
        }
    }

    /// `y = CONV_2D(x, filter)` with a 1x1x1x1 float filter of 1 and no bias.
    static func convolution(input: TinyModel.Tensor, output: TinyModel.Tensor) -> TinyModel {
        var m = TinyModel()
        m.codes = [TinyModel.Code(.conv2d)]
        m.buffers.append(TinyModel.Buffer(data: [Float(1)].withUnsafeBytes { Array($0) }))
        m.subgraphs[0].tensors = [input, TinyModel.Tensor(shape: [1, 1, 1, 1], buffer: 1, name: "filter"), output]
        m.subgraphs[0].inputs = [0]
        m.subgraphs[0].operators = [.init(inputs: [0, 1, -1], outputs: [2],
                                          options: .conv2DOptions(Schema.Conv2DOptions(padding: .valid, strideW: 1, strideH: 1)))]
        return m
    }

    @Test func anOutputNoNodeWritesIsRefused() throws {
        var m = TinyModel()
        m.subgraphs[0].tensors.append(TinyModel.Tensor(shape: [1024], name: "never"))
        m.subgraphs[0].outputs = [2, 3]
        #expect(try Self.allocationError(m) == .invalidShape(
            tensor: "never", reason: "output 1 of subgraph 0 is a tensor no node writes (and not an input, a constant or a variable)"))
    }

    @Test func aNodeReadingItsOwnOutputIsRefused() throws {
        var m = TinyModel()
        m.subgraphs[0].operators = [.init(inputs: [0, 2], outputs: [2])]
        #expect(try Self.allocationError(m) == .invalidNode(
            node: 0, op: "ADD", reason: "reads tensor 2 't' before node 0 writes it (nodes out of order, or a node reading its own output)"))
    }

    @Test func nodesOutOfOrderAreRefused() throws {
        var m = TinyModel()
        m.subgraphs[0].tensors.append(TinyModel.Tensor(shape: [2], name: "later"))
        m.subgraphs[0].outputs = [3]
        // Node 0 reads what node 1 writes.
        m.subgraphs[0].operators = [.init(inputs: [2, 1], outputs: [3]), .init(inputs: [0, 1], outputs: [2])]
        #expect(try Self.allocationError(m) == .invalidNode(
            node: 0, op: "ADD", reason: "reads tensor 2 't' before node 1 writes it (nodes out of order, or a node reading its own output)"))
    }

    @Test func readingATensorNothingWritesIsRefused() throws {
        var m = TinyModel()
        m.subgraphs[0].inputs = [0]
        #expect(try Self.allocationError(m) == .invalidNode(
            node: 0, op: "ADD", reason: "reads tensor 1 't', which no node writes and which is not an input, a constant or a variable"))
    }

    /// The caller's bytes go to memory of the interpreter's own, never into the model's
    /// buffer (read-only when the file is mapped; shared by every interpreter of the model).
    @Test func anInputHoldingConstantDataIsWrittenInPrivateMemory() throws {
        var m = TinyModel()
        let constant: [Float] = [10, 20]
        m.buffers.append(TinyModel.Buffer(data: constant.withUnsafeBytes { Array($0) }))
        m.subgraphs[0].tensors[0].buffer = 1
        let model = try Model(bytes: m.bytes())
        let interpreter = try Interpreter(model: model)
        try interpreter.allocateTensors()
        try interpreter.copy([Float(1), 2], toInputAt: 0)
        try interpreter.copy([Float(3), 4], toInputAt: 1)
        try interpreter.invoke()
        #expect(try interpreter.output(at: 0).values(as: Float.self) == [4, 6])
        #expect(Array(model.bufferData(1)) == constant.withUnsafeBytes { Array($0) })
    }

    /// A convolution computes float32 from float32 input; an output declared int8 would get
    /// 4-byte stores into a 1-byte-per-element buffer.
    @Test func anOutputDeclaredWithAnotherTypeIsRefused() throws {
        let m = Self.convolution(input: TinyModel.Tensor(shape: [1, 2, 2, 1], name: "x"),
                                 output: TinyModel.Tensor(shape: [1, 2, 2, 1], type: .int8, name: "y", scales: [1], zeroPoints: [0]))
        #expect(try Self.allocationError(m) == .invalidNode(
            node: 0, op: "CONV_2D", reason: "output 0 is declared INT8, but CONV_2D writes FLOAT32 here (the type of input 0)"))
    }

    /// A CONV_2D over an input with no channels would divide by its zero group count.
    @Test func aConvolutionOverZeroChannelsIsRefused() throws {
        let m = Self.convolution(input: TinyModel.Tensor(shape: [1, 2, 2, 0], name: "x"),
                                 output: TinyModel.Tensor(shape: [1, 2, 2, 1], name: "y"))
        #expect(try Self.allocationError(m) == .invalidNode(
            node: 0, op: "CONV_2D", reason: "input has 0 channels, not a positive multiple of the filter's 1"))
    }

    /// A TILE of an empty tensor by a huge multiple holds no bytes, but its output axis is
    /// longer than any index table the limit allows.
    @Test func anEmptyTensorTiledPastTheLimitIsRefused() throws {
        var m = TinyModel()
        m.codes = [TinyModel.Code(.tile)]
        m.buffers.append(TinyModel.Buffer(data: [Int32(1), 1 << 30].withUnsafeBytes { Array($0) }))
        m.subgraphs[0].tensors = [
            TinyModel.Tensor(shape: [0, 2], name: "x"),
            TinyModel.Tensor(shape: [2], type: .int32, buffer: 1, name: "multiples"),
            TinyModel.Tensor(shape: [0, 2], name: "y"),
        ]
        m.subgraphs[0].inputs = [0]
        let interpreter = try Interpreter(model: Model(bytes: m.bytes()))
        #expect(throws: InterpreterError.memoryLimitExceeded(requested: 8 << 31, limit: Interpreter.Options().memoryLimit)) {
            try interpreter.allocateTensors()
        }
    }

    /// Scratch memory counts against the limit as tensors do: an int8 TRANSPOSE_CONV whose
    /// tensors (a 160 KB input, a 320 KB output) fit in 1 MB but whose int32 accumulators
    /// (1.28 MB of scratch) do not is refused at allocation.
    @Test func scratchBeyondTheMemoryLimitIsRefused() throws {
        var m = TinyModel()
        m.codes = [TinyModel.Code(.transposeConv)]
        m.buffers += [TinyModel.Buffer(data: [Int32(1), 400, 400, 2].withUnsafeBytes { Array($0) }),
                      TinyModel.Buffer(data: [1, 1])]
        m.subgraphs[0].tensors = [TinyModel.Tensor(shape: [4], type: .int32, buffer: 1, name: "output_shape"),
                                  TinyModel.Tensor(shape: [2, 1, 1, 1], type: .int8, buffer: 2, name: "filter", scales: [0.5], zeroPoints: [0]),
                                  TinyModel.Tensor(shape: [1, 400, 400, 1], type: .int8, name: "x", scales: [0.5], zeroPoints: [0]),
                                  TinyModel.Tensor(shape: [1, 400, 400, 2], type: .int8, name: "y", scales: [0.5], zeroPoints: [0])]
        m.subgraphs[0].inputs = [2]
        m.subgraphs[0].outputs = [3]
        m.subgraphs[0].operators = [.init(inputs: [0, 1, 2], outputs: [3],
                                          options: .transposeConvOptions(Schema.TransposeConvOptions(padding: .valid, strideW: 1, strideH: 1)))]
        var options = Interpreter.Options()
        options.memoryLimit = 1 << 20
        let interpreter = try Interpreter(model: Model(bytes: m.bytes()), options: options)
        #expect(throws: InterpreterError.memoryLimitExceeded(requested: 400 * 400 * 2 * 4, limit: 1 << 20)) {
            try interpreter.allocateTensors()
        }
        // The same model within the default limit allocates and runs: the scratch alone was refused.
        let unlimited = try Interpreter(model: Model(bytes: m.bytes()))
        try unlimited.allocateTensors()
        try unlimited.invoke()
    }
}

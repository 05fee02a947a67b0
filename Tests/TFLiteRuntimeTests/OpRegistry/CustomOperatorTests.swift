import FlatBuffers
import Testing
@testable import TFLiteRuntime

/// The public custom-operator API: user kernels registered on `Interpreter.Options` run like
/// builtins (planned memory, profiles, errors naming the node) and replace nothing silently.
@Suite struct CustomOperatorTests {
    /// `y = x * factor` on float32, `factor` from the options' FlexBuffer map (default 1).
    static let scale = CustomOperator(name: "Scale") { node in
        try node.expect(inputs: 1, outputs: 1)
        let x = try node.input(0)
        guard x.type == .float32 else { throw CustomOperatorError("input 0 has type \(x.type); Scale takes float32") }
        let factor = node.customOptions.isEmpty ? 1 : try FlexBuffer.root(of: node.customOptions).map["factor"]?.asFloat ?? 1
        guard factor > 0 else { throw CustomOperatorError("factor must be positive, got \(factor)") }
        try node.setOutput(0, shape: x.shape)
        node.kernelName = "scale.f32"
        return { io in
            let input = io.input(0, as: Float.self), output = io.output(0, as: Float.self)
            for i in input.indices { output[i] = input[i] * factor }
        }
    }

    /// `y = x + 1` on float32.
    static let addOne = CustomOperator(name: "AddOne") { node in
        let x = try node.input(0)
        try node.setOutput(0, shape: x.shape)
        return { io in
            let input = io.input(0, as: Float.self), output = io.output(0, as: Float.self)
            for i in input.indices { output[i] = input[i] + 1 }
        }
    }

    static let customCode = Schema.BuiltinOperator.custom.rawValue

    /// A chain of custom nodes over float32 [2, 3] tensors: node k reads tensor k and writes
    /// tensor k + 1; tensor 0 is the model's input and the last one its output.
    static func chain(_ nodes: [(code: String, options: [UInt8]?)], version: Int32? = nil, shape: [Int32] = [2, 3]) throws -> Model {
        var tiny = TinyModel()
        let codes = Array(Set(nodes.map(\.code))).sorted()
        tiny.codes = codes.map {
            var code = TinyModel.Code(deprecated: Int8(customCode), builtin: customCode, custom: $0)
            code.version = version
            return code
        }
        let tensors = (0...nodes.count).map { TinyModel.Tensor(shape: shape, type: .float32, name: "t\($0)") }
        let operators = nodes.enumerated().map { k, node in
            TinyModel.Operator(opcodeIndex: UInt32(codes.firstIndex(of: node.code)!), inputs: [Int32(k)], outputs: [Int32(k + 1)],
                               customOptions: node.options)
        }
        tiny.subgraphs = [TinyModel.Subgraph(tensors: tensors, inputs: [0], outputs: [Int32(nodes.count)], operators: operators)]
        return try Model(bytes: tiny.bytes())
    }

    static func options(_ ops: CustomOperator...) throws -> Interpreter.Options {
        var options = Interpreter.Options(threadCount: 1)
        try options.addCustomOperators(ops)
        return options
    }

    static let input: [Float] = [1, -2, 3.5, 0, 7, -0.25]

    @Test func runsAChainOfUserNodesInPlannedMemory() throws {
        let three = FlexMap.bytes([("factor", .float(3))])
        // Tensors of 4 KiB, so that the arena's alignment padding does not blur the sharing.
        let model = try Self.chain([("Scale", three), ("AddOne", nil), ("Scale", nil), ("AddOne", nil)], shape: [16, 64])
        let interpreter = try Interpreter(model: model, options: Self.options(Self.scale, Self.addOne))
        try interpreter.allocateTensors()
        let input = (0..<1024).map { Float($0 % 37) - 18.5 }
        try interpreter.copy(input, toInputAt: 0)
        try interpreter.invoke()
        let expected = input.map { ($0 * 3 + 1) * 1 + 1 }
        #expect(try interpreter.output(at: 0).values(as: Float.self) == expected)
        // Every tensor lives in the arena, and the planner shares memory between the ones
        // whose lifetimes do not overlap (t1 dies before t3 is written), as for builtins.
        for t in 0...4 {
            guard case .arena = interpreter.main.tensors[t].storage else {
                Issue.record("tensor t\(t) is not in the arena: \(interpreter.main.tensors[t].storage)")
                continue
            }
        }
        let stats = interpreter.memoryStatistics
        #expect(stats.tensorBytes == 5 * 4096)
        #expect(stats.arenaBytes < stats.tensorBytes)
        // A second invocation on new data reuses the same plan.
        try interpreter.copy(expected, toInputAt: 0)
        try interpreter.invoke()
        #expect(try interpreter.output(at: 0).values(as: Float.self) == expected.map { $0 * 3 + 2 })
    }

    @Test func outputShapesFollowInputResizes() throws {
        var tiny = TinyModel()
        tiny.codes = [TinyModel.Code(deprecated: Int8(Self.customCode), builtin: Self.customCode, custom: "AddOne")]
        tiny.subgraphs = [TinyModel.Subgraph(
            tensors: [TinyModel.Tensor(shape: [1, 2], type: .float32, name: "x", shapeSignature: [-1, 2]),
                      TinyModel.Tensor(shape: [1, 2], type: .float32, name: "y")],
            inputs: [0], outputs: [1], operators: [TinyModel.Operator(opcodeIndex: 0, inputs: [0], outputs: [1])])]
        let interpreter = try Interpreter(model: Model(bytes: tiny.bytes()), options: Self.options(Self.addOne))
        try interpreter.resizeInput(at: 0, to: [3, 2])
        try interpreter.allocateTensors()
        try interpreter.copy(Self.input, toInputAt: 0)
        try interpreter.invoke()
        let output = try interpreter.output(at: 0)
        #expect(output.shape == [3, 2])
        #expect(output.values(as: Float.self) == Self.input.map { $0 + 1 })
    }

    @Test func aNodeAfterAValueShapedOutputIsPreparedAtEachInvocation() throws {
        // UNIQUE's first output has as many elements as the input has distinct values, known
        // only at run time: AddOne, reading it, is prepared once it is.
        var tiny = TinyModel()
        tiny.codes = [TinyModel.Code(.unique), TinyModel.Code(deprecated: Int8(Self.customCode), builtin: Self.customCode, custom: "AddOne")]
        tiny.subgraphs = [TinyModel.Subgraph(
            tensors: [TinyModel.Tensor(shape: [6], name: "x"), TinyModel.Tensor(shape: [6], name: "distinct"),
                      TinyModel.Tensor(shape: [6], type: .int32, name: "positions"), TinyModel.Tensor(shape: [6], name: "y")],
            inputs: [0], outputs: [3],
            operators: [TinyModel.Operator(opcodeIndex: 0, inputs: [0], outputs: [1, 2]),
                        TinyModel.Operator(opcodeIndex: 1, inputs: [1], outputs: [3])])]
        let interpreter = try Interpreter(model: Model(bytes: tiny.bytes()), options: Self.options(Self.addOne))
        try interpreter.allocateTensors()
        for (input, distinct) in [([1, 1, 2, 3, 3, 3], [1, 2, 3]), ([5, 5, 5, 5, 5, 5], [5]), ([6, 5, 4, 3, 2, 1], [6, 5, 4, 3, 2, 1])] as [([Float], [Float])] {
            try interpreter.copy(input, toInputAt: 0)
            try interpreter.invoke()
            let output = try interpreter.output(at: 0)
            #expect(output.shape == [distinct.count])
            #expect(output.values(as: Float.self) == distinct.map { $0 + 1 })
        }
    }

    @Test func aPrepareErrorNamesTheNode() throws {
        let negative = FlexMap.bytes([("factor", .float(-2))])
        let model = try Self.chain([("AddOne", nil), ("Scale", negative)])
        let interpreter = try Interpreter(model: model, options: Self.options(Self.scale, Self.addOne))
        #expect(throws: InterpreterError.invalidNode(node: 1, op: "Scale", reason: "factor must be positive, got -2.0")) {
            try interpreter.allocateTensors()
        }
        #expect(throws: InterpreterError.self) { try interpreter.invoke() }
    }

    @Test func malformedOptionsAreAPrepareErrorToo() throws {
        let model = try Self.chain([("Scale", [0x01, 0x02, 0x07])])
        let interpreter = try Interpreter(model: model, options: Self.options(Self.scale))
        let error = try #require(throws: InterpreterError.self) { try interpreter.allocateTensors() }
        guard case .invalidNode(0, "Scale", let reason) = error else { Issue.record("\(error)"); return }
        #expect(reason.contains("FlexBuffer"))
    }

    @Test func aKernelErrorNamesTheNode() throws {
        let failing = CustomOperator(name: "FailsOnNaN") { node in
            try node.setOutput(0, shape: node.input(0).shape)
            return { io in
                let input = io.input(0, as: Float.self)
                if let k = input.firstIndex(where: \.isNaN) { throw CustomOperatorError("element \(k) is NaN") }
                _ = io.output(0, as: Float.self).update(fromContentsOf: input)
            }
        }
        let model = try Self.chain([("AddOne", nil), ("AddOne", nil), ("FailsOnNaN", nil)])
        let interpreter = try Interpreter(model: model, options: Self.options(failing, Self.addOne))
        try interpreter.allocateTensors()
        try interpreter.copy([1, 2, .nan, 4, 5, 6] as [Float], toInputAt: 0)
        #expect(throws: InterpreterError.invokeFailed(node: 2, op: "FailsOnNaN", reason: "element 2 is NaN")) {
            try interpreter.invoke()
        }
        #expect(InterpreterError.invokeFailed(node: 2, op: "FailsOnNaN", reason: "element 2 is NaN").description
                == "node 2 (FailsOnNaN) failed: element 2 is NaN")
    }

    @Test func everyOutputMustBeDeclared() throws {
        let forgetful = CustomOperator(name: "Forgetful") { _ in { _ in } }
        let interpreter = try Interpreter(model: Self.chain([("Forgetful", nil)]), options: Self.options(forgetful))
        let error = try #require(throws: InterpreterError.self) { try interpreter.allocateTensors() }
        #expect(error == .invalidNode(node: 0, op: "Forgetful",
                                      reason: "prepare did not declare output 0 ('t1'): call setOutput(0, shape:) for every output"))
    }

    @Test func aDeclaredTypeBecomesTheOutputsType() throws {
        // The model declares float32; the kernel writes int32, as LiteRT lets a custom prepare do.
        let rounding = CustomOperator(name: "Round") { node in
            try node.setOutput(0, shape: node.input(0).shape, type: .int32)
            return { io in
                let input = io.input(0, as: Float.self), output = io.output(0, as: Int32.self)
                for i in input.indices { output[i] = Int32(input[i].rounded()) }
            }
        }
        let interpreter = try Interpreter(model: Self.chain([("Round", nil)]), options: Self.options(rounding))
        try interpreter.allocateTensors()
        try interpreter.copy(Self.input, toInputAt: 0)
        try interpreter.invoke()
        let output = try interpreter.output(at: 0)
        #expect(output.dataType == .int32)
        #expect(output.values(as: Int32.self) == Self.input.map { Int32($0.rounded()) })
    }

    @Test func userNodesAppearInProfiles() throws {
        let model = try Self.chain([("AddOne", nil), ("Scale", nil)])
        let interpreter = try Interpreter(model: model, options: Self.options(Self.scale, Self.addOne))
        try interpreter.allocateTensors()
        try interpreter.copy(Self.input, toInputAt: 0)
        let timings = try interpreter.invokeProfiled()
        #expect(timings.map(\.node) == [0, 1])
        #expect(timings.map(\.op) == ["AddOne", "Scale"])
        #expect(timings.map(\.kernel) == ["addone.f32.reference", "scale.f32"])
        #expect(timings.map(\.outputShape) == [[2, 3], [2, 3]])
        #expect(try interpreter.output(at: 0).values(as: Float.self) == Self.input.map { $0 + 1 })
    }

    @Test func versionsOutsideTheRegisteredRangeAreRefused() throws {
        let secondOnly = CustomOperator(name: "AddOne", versions: 2...2, prepare: Self.addOne.prepare)
        let model = try Self.chain([("AddOne", nil)], version: 1)
        let interpreter = try Interpreter(model: model, options: Self.options(secondOnly))
        #expect(throws: InterpreterError.unsupportedOperator(
            node: 0, op: "AddOne", reason: "version 1 of this operator has no kernel (the registered one runs version 2)")) {
            try interpreter.allocateTensors()
        }
        let v2 = try Interpreter(model: Self.chain([("AddOne", nil)], version: 2), options: Self.options(secondOnly))
        try v2.allocateTensors()
    }

    @Test func unknownCustomOperatorsAreStillRefusedByName() throws {
        let model = try Self.chain([("AddOne", nil), ("Mystery", nil)])
        let interpreter = try Interpreter(model: model, options: Self.options(Self.addOne))
        #expect(throws: InterpreterError.unsupportedOperator(
            node: 1, op: "Mystery", reason: "this runtime has no kernel for it (see 'tflite ops')")) {
            try interpreter.allocateTensors()
        }
        // Options without the operator: the user's kernel is not global state.
        let plain = try Interpreter(model: model, options: .init(threadCount: 1))
        #expect(throws: InterpreterError.unsupportedOperator(
            node: 0, op: "AddOne", reason: "this runtime has no kernel for it (see 'tflite ops')")) {
            try plain.allocateTensors()
        }
    }

    @Test func builtinNamesAreRefused() throws {
        var options = Interpreter.Options()
        for name in ["CONV_2D", "CUSTOM", "FULLY_CONNECTED"] {
            let error = try #require(throws: CustomOperatorError.self) {
                try options.addCustomOperator(CustomOperator(name: name, prepare: Self.addOne.prepare), replacingBuiltin: true)
            }
            #expect(error.message == "'\(name)' is the name of a builtin operator: models call builtins by opcode, not by name, so a custom operator cannot replace one")
        }
        #expect(throws: CustomOperatorError("a custom operator needs a name (its custom code)")) {
            try options.addCustomOperator(CustomOperator(name: "", prepare: Self.addOne.prepare))
        }
    }

    @Test func theRuntimesOwnCustomOperatorsAreReplacedOnlyWhenAsked() throws {
        let code = "TFLite_Detection_PostProcess"
        let mine = CustomOperator(name: code, prepare: Self.addOne.prepare)
        var options = Interpreter.Options(threadCount: 1)
        #expect(throws: CustomOperatorError("'\(code)' is one of this runtime's own custom operators; add yours with replacingBuiltin: true to run it instead")) {
            try options.addCustomOperator(mine)
        }
        try options.addCustomOperator(mine, replacingBuiltin: true)
        let interpreter = try Interpreter(model: Self.chain([(code, nil)]), options: options)
        try interpreter.allocateTensors()
        try interpreter.copy(Self.input, toInputAt: 0)
        try interpreter.invoke()
        #expect(try interpreter.output(at: 0).values(as: Float.self) == Self.input.map { $0 + 1 })
        // The standard table itself is untouched.
        #expect(SupportedOperators.all.contains { $0.name == code && $0.isCustom })
    }

    @Test func aNameIsAddedOnce() throws {
        var options = try Self.options(Self.addOne)
        #expect(throws: CustomOperatorError("custom operator 'AddOne' is already added")) {
            try options.addCustomOperator(Self.addOne)
        }
        // A refused batch adds none of its operators.
        #expect(throws: CustomOperatorError.self) { try options.addCustomOperators([Self.scale, Self.addOne]) }
        let interpreter = try Interpreter(model: Self.chain([("Scale", nil)]), options: options)
        #expect(throws: InterpreterError.unsupportedOperator(
            node: 0, op: "Scale", reason: "this runtime has no kernel for it (see 'tflite ops')")) {
            try interpreter.allocateTensors()
        }
    }

    @Test func optionsWithUserOperatorsCrossThreads() async throws {
        // Options are Sendable: interpreters on other tasks prepare with the same kernels.
        let options = try Self.options(Self.scale, Self.addOne)
        let model = try Self.chain([("Scale", FlexMap.bytes([("factor", .float(2))])), ("AddOne", nil)])
        let results = try await withThrowingTaskGroup(of: [Float].self) { group in
            for k in 0..<4 {
                group.addTask {
                    let interpreter = try Interpreter(model: model, options: options)
                    try interpreter.allocateTensors()
                    try interpreter.copy(Self.input.map { $0 + Float(k) }, toInputAt: 0)
                    try interpreter.invoke()
                    return try interpreter.output(at: 0).values(as: Float.self)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let expected = Set((0..<4).map { k in Self.input.map { ($0 + Float(k)) * 2 + 1 } })
        #expect(Set(results) == expected)
    }

    @Test func theReadmeExampleRuns() throws {
        // README.md's "Custom operators" code, as it is there.
        let scale = CustomOperator(name: "Scale") { node in
            let x = try node.input(0)
            guard x.type == .float32 else { throw CustomOperatorError("Scale takes float32, not \(x.type)") }
            try node.setOutput(0, shape: x.shape)
            return { io in
                let input = io.input(0, as: Float.self), output = io.output(0, as: Float.self)
                for i in input.indices { output[i] = 2 * input[i] }
            }
        }
        var options = Interpreter.Options()
        try options.addCustomOperator(scale)

        let interpreter = try Interpreter(model: Self.chain([("Scale", nil)]), options: options)
        try interpreter.allocateTensors()
        try interpreter.copy(Self.input, toInputAt: 0)
        try interpreter.invoke()
        #expect(try interpreter.output(at: 0).values(as: Float.self) == Self.input.map { 2 * $0 })
    }

    @Test func omittedInputsAreNil() throws {
        // Node inputs [0, -1]: the second is an optional input the model leaves out.
        let probe = CustomOperator(name: "Probe") { node in
            guard node.inputs.count == 2, node.inputs[1] == nil else { throw CustomOperatorError("expected an omitted input 1") }
            #expect(throws: CustomOperatorError("input 1 is omitted by the model")) { try node.input(1) }
            #expect(throws: CustomOperatorError("input 2 is missing: the node has 2 inputs")) { try node.input(2) }
            try node.setOutput(0, shape: node.input(0).shape)
            return { io in
                #expect(io.input(1, as: Float.self).isEmpty)
                _ = io.output(0, as: Float.self).update(fromContentsOf: io.input(0, as: Float.self))
            }
        }
        var tiny = TinyModel()
        tiny.codes = [TinyModel.Code(deprecated: Int8(Self.customCode), builtin: Self.customCode, custom: "Probe")]
        tiny.subgraphs = [TinyModel.Subgraph(
            tensors: [TinyModel.Tensor(shape: [3], name: "x"), TinyModel.Tensor(shape: [3], name: "y")],
            inputs: [0], outputs: [1], operators: [TinyModel.Operator(opcodeIndex: 0, inputs: [0, -1], outputs: [1])])]
        let interpreter = try Interpreter(model: Model(bytes: tiny.bytes()), options: Self.options(probe))
        try interpreter.allocateTensors()
        try interpreter.copy([1, 2, 3] as [Float], toInputAt: 0)
        try interpreter.invoke()
        #expect(try interpreter.output(at: 0).values(as: Float.self) == [1, 2, 3])
    }
}

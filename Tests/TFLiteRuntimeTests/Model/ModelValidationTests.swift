import Testing
import TFLiteRuntime

/// Each hostile model is rejected with an error naming where and what.
@Suite struct ModelValidationTests {
    /// The error loading `bytes` throws, or nil when it loads.
    static func loadError(_ bytes: [UInt8]) -> ModelError? {
        do {
            _ = try Model(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    static func invalid(_ model: TinyModel) -> (location: String, reason: String)? {
        guard case .invalid(let location, let reason) = loadError(model.bytes()) else { return nil }
        return (location, reason)
    }

    @Test func tinyModelLoads() throws {
        let model = try Model(bytes: TinyModel().bytes())
        #expect(model.schema.subgraphs[0].tensors.count == 3)
        #expect(model.operatorKind(ofCode: 0) == .builtin(.add))
    }

    @Test func operatorTensorIndexOutOfRange() throws {
        var tiny = TinyModel()
        tiny.subgraphs[0].operators[0].inputs = [0, 7]
        let error = try #require(Self.invalid(tiny))
        #expect(error.location == "subgraph 0, operator 0 (ADD)")
        #expect(error.reason.contains("input 1: tensor index 7 is out of range"))
    }

    @Test func optionalInputsOnlyMayBeMinusOne() throws {
        var tiny = TinyModel()
        tiny.subgraphs[0].operators[0].inputs = [0, -1]
        #expect(Self.loadError(tiny.bytes()) == nil)
        tiny.subgraphs[0].operators[0].outputs = [-1]
        let error = try #require(Self.invalid(tiny))
        #expect(error.reason.contains("output 0: tensor index -1"))
    }

    @Test func subgraphInputOutOfRange() throws {
        var tiny = TinyModel()
        tiny.subgraphs[0].outputs = [3]
        let error = try #require(Self.invalid(tiny))
        #expect(error.location == "subgraph 0, output 0")
    }

    @Test func negativeShape() throws {
        var tiny = TinyModel()
        tiny.subgraphs[0].tensors[1] = TinyModel.Tensor(shape: [1, -4], name: "weights")
        let error = try #require(Self.invalid(tiny))
        #expect(error.location == "subgraph 0, tensor 1 'weights'")
        #expect(error.reason.contains("negative dimension"))
    }

    @Test func hugeShapeOverflows() throws {
        var tiny = TinyModel()
        tiny.subgraphs[0].tensors[2].shape = [Int32.max, Int32.max, Int32.max]
        let error = try #require(Self.invalid(tiny))
        #expect(error.location == "subgraph 0, tensor 2 't'")
        #expect(error.reason.contains("more elements than can be counted"))
    }

    @Test func shapeWhoseByteCountOverflows() throws {
        // (2^31 - 1)^2 * 2 elements still fit a 64-bit count; four bytes each do not.
        var tiny = TinyModel()
        tiny.subgraphs[0].tensors[2].shape = [Int32.max, Int32.max, 2]
        let error = try #require(Self.invalid(tiny))
        #expect(error.reason.contains("more bytes than can be counted"))
        tiny.subgraphs[0].tensors[2].type = .int8
        #expect(Self.loadError(tiny.bytes()) == nil, "one byte each fits")
    }

    @Test func dynamicDimensionsOnlyInShapeSignature() throws {
        var tiny = TinyModel()
        tiny.subgraphs[0].tensors[0].shape = [1, 3]
        tiny.subgraphs[0].tensors[0].shapeSignature = [-1, 3]
        #expect(Self.loadError(tiny.bytes()) == nil)
        tiny.subgraphs[0].tensors[0].shapeSignature = [-2, 3]
        #expect(Self.invalid(tiny)?.reason.contains("below -1") == true)
        tiny.subgraphs[0].tensors[0].shapeSignature = [-1]
        #expect(Self.invalid(tiny)?.reason.contains("differ in rank") == true)
    }

    @Test func bufferSmallerThanShape() throws {
        var tiny = TinyModel()
        tiny.buffers.append(TinyModel.Buffer(data: [UInt8](repeating: 0, count: 8)))
        tiny.subgraphs[0].tensors[1] = TinyModel.Tensor(shape: [2, 2], buffer: 1, name: "w")
        let error = try #require(Self.invalid(tiny))
        #expect(error.location == "subgraph 0, tensor 1 'w'")
        #expect(error.reason == "buffer 1 holds 8 bytes but shape [2, 2] of FLOAT32 needs \(2 * 2 * 4)")
        tiny.buffers[1].data = [UInt8](repeating: 0, count: 2 * 2 * 4)
        #expect(Self.loadError(tiny.bytes()) == nil)
    }

    @Test func bufferIndexOutOfRange() throws {
        var tiny = TinyModel()
        tiny.subgraphs[0].tensors[0].buffer = 5
        #expect(Self.invalid(tiny)?.reason.contains("buffer index 5 is out of range") == true)
    }

    @Test func externalBufferOutsideTheFile() throws {
        var tiny = TinyModel()
        tiny.buffers.append(TinyModel.Buffer(external: [UInt8](repeating: 1, count: 8)))
        var bytes = tiny.bytes()
        #expect(Self.loadError(bytes) == nil)
        bytes.removeLast(4)
        guard case .invalid(let location, let reason) = Self.loadError(bytes) else {
            Issue.record("a buffer reaching past the end loaded")
            return
        }
        #expect(location == "buffer 1")
        #expect(reason.contains("runs past the end"))
    }

    @Test func opcodeIndexOutOfRange() throws {
        var tiny = TinyModel()
        tiny.subgraphs[0].operators[0].opcodeIndex = 3
        let error = try #require(Self.invalid(tiny))
        #expect(error.location == "subgraph 0, operator 0")
        #expect(error.reason.contains("opcode index 3"))
    }

    @Test func customCodeWithoutName() throws {
        var tiny = TinyModel()
        tiny.codes = [TinyModel.Code(.custom)]
        #expect(Self.invalid(tiny)?.location == "operator code 0")
    }

    @Test func controlFlowSubgraphOutOfRange() throws {
        var tiny = TinyModel()
        tiny.subgraphs[0].operators[0].options = .whileOptions(Schema.WhileOptions(condSubgraphIndex: 1, bodySubgraphIndex: 9))
        tiny.subgraphs.append(TinyModel.Subgraph())
        let error = try #require(Self.invalid(tiny))
        #expect(error.reason.contains("subgraph index 9 is out of range"))
    }

    @Test func cyclicSubgraphReferences() throws {
        // 0 -WHILE-> 1 -IF-> 2 -CALL_ONCE-> 1: a loop between 1 and 2.
        var tiny = TinyModel()
        tiny.subgraphs = [TinyModel.Subgraph(), TinyModel.Subgraph(), TinyModel.Subgraph()]
        tiny.subgraphs[0].operators[0].options = .whileOptions(Schema.WhileOptions(condSubgraphIndex: 1, bodySubgraphIndex: 1))
        tiny.subgraphs[1].operators[0].options = .ifOptions(Schema.IfOptions(thenSubgraphIndex: 2, elseSubgraphIndex: 2))
        #expect(Self.loadError(tiny.bytes()) == nil, "an acyclic call graph loads")
        tiny.subgraphs[2].operators[0].options = .callOnceOptions(Schema.CallOnceOptions(initSubgraphIndex: 1))
        let error = try #require(Self.invalid(tiny))
        #expect(error.reason.contains("recursive subgraphs"))
    }

    @Test func subgraphCallingItself() throws {
        var tiny = TinyModel()
        tiny.subgraphs[0].operators[0].options = .callOnceOptions(Schema.CallOnceOptions(initSubgraphIndex: 0))
        #expect(Self.invalid(tiny)?.location == "subgraph 0")
    }

    @Test func quantizationCounts() throws {
        var tiny = TinyModel()
        tiny.subgraphs[0].tensors[1] = TinyModel.Tensor(shape: [3, 2], scales: [0.5, 0.25, 1], zeroPoints: [0, 0, 0])
        #expect(Self.loadError(tiny.bytes()) == nil, "one scale per slice of dimension 0")
        tiny.subgraphs[0].tensors[1].quantizedDimension = 1
        #expect(Self.invalid(tiny)?.reason.contains("3 quantization scales for dimension 1") == true)
        tiny.subgraphs[0].tensors[1].quantizedDimension = 2
        #expect(Self.invalid(tiny)?.reason.contains("outside the tensor's rank") == true)
        tiny.subgraphs[0].tensors[1].quantizedDimension = 0
        tiny.subgraphs[0].tensors[1].zeroPoints = [0, 0]
        #expect(Self.invalid(tiny)?.reason.contains("2 zero points for 3") == true)
        // One scale covers the whole tensor: its axis is never read, so a stale one loads.
        tiny.subgraphs[0].tensors[1] = TinyModel.Tensor(shape: [3, 2], scales: [0.5], zeroPoints: [0])
        tiny.subgraphs[0].tensors[1].quantizedDimension = 3
        #expect(Self.loadError(tiny.bytes()) == nil)
        // A vector has one axis: per-channel scales along it load whatever axis is stored.
        tiny.subgraphs[0].tensors[1] = TinyModel.Tensor(shape: [3], scales: [0.5, 0.25, 1], zeroPoints: [0, 0, 0])
        tiny.subgraphs[0].tensors[1].quantizedDimension = 3
        #expect(Self.loadError(tiny.bytes()) == nil)
    }

    @Test func signatureTensorOutOfRange() throws {
        var tiny = TinyModel()
        tiny.signature = ("serving", [("x", 0), ("y", 1)], [("z", 2)])
        #expect(Self.loadError(tiny.bytes()) == nil)
        tiny.signature = ("serving", [("x", 0)], [("z", 30)])
        let error = try #require(Self.invalid(tiny))
        #expect(error.location == "signature 0 'serving', tensor 'z'")
    }

    @Test func unsupportedVersion() throws {
        var tiny = TinyModel()
        tiny.version = 2
        #expect(Self.invalid(tiny)?.reason.contains("schema version 2") == true)
    }

    @Test func wrongIdentifier() throws {
        var bytes = TinyModel().bytes()
        bytes[4] = UInt8(ascii: "X")
        guard case .flatBuffer(let error) = Self.loadError(bytes) else {
            Issue.record("a file without TFL3 loaded")
            return
        }
        #expect(error.kind == .badIdentifier)
    }

    @Test func rootOffsetPastEnd() throws {
        var bytes = TinyModel().bytes()
        bytes.replaceSubrange(0..<4, with: [0, 0, 0, 0x40])
        guard case .flatBuffer(let error) = Self.loadError(bytes) else {
            Issue.record("a root offset past the end loaded")
            return
        }
        #expect(error.kind == .outOfBounds)
        #expect(error.offset == 0)
        #expect(ModelError.flatBuffer(error).description.contains("at byte offset 0"))
    }

    @Test func vtableOutOfRange() throws {
        let (original, positions) = TinyModel().write()
        var bytes = original
        bytes.replaceSubrange(positions.root..<(positions.root + 4), with: [0x00, 0x00, 0x00, 0x80])
        guard case .flatBuffer(let error) = Self.loadError(bytes) else {
            Issue.record("a vtable outside the file loaded")
            return
        }
        #expect(error.kind == .badVTable)
        #expect(error.offset == positions.root)
    }

    @Test func vectorLengthOverflow() throws {
        let (original, positions) = TinyModel().write()
        var bytes = original
        let at = positions.firstShapeVector
        bytes.replaceSubrange(at..<(at + 4), with: [0xF0, 0xFF, 0xFF, 0xFF])
        guard case .flatBuffer(let error) = Self.loadError(bytes) else {
            Issue.record("a shape vector of 4 billion entries loaded")
            return
        }
        #expect(error.kind == .lengthOverflow)
        #expect(error.offset == at)
        #expect(error.reason.hasPrefix("Tensor.shape"))
    }

    @Test func truncatedFile() throws {
        let bytes = TinyModel().bytes()
        for length in [0, 3, 8, bytes.count / 2, bytes.count - 1] {
            #expect(Self.loadError(Array(bytes.prefix(length))) != nil, "truncated to \(length) bytes")
        }
    }

    @Test func unknownEnumValueNamesTheField() throws {
        // Find the first tensor's type byte by writing the model with two types and diffing.
        var tiny = TinyModel()
        let plain = tiny.bytes()
        tiny.subgraphs[0].tensors[0].type = .complex128
        let marked = tiny.bytes()
        let index = try #require(plain.indices.first { plain[$0] != marked[$0] })
        var bytes = plain
        bytes[index] = 99
        guard case .flatBuffer(let error) = Self.loadError(bytes) else {
            Issue.record("an unknown tensor type loaded")
            return
        }
        #expect(error.kind == .invalidValue)
        #expect(error.reason == "Tensor.type: value 99 is not a valid TensorType")
    }
}

/// Quantisation parameters are range-checked at load, before any arithmetic uses them.
@Suite struct QuantizationValidationTests {
    static func tensorWith(type: Schema.TensorType, scale: Float, zeroPoint: Int64) -> TinyModel {
        var tiny = TinyModel()
        tiny.subgraphs[0].tensors[2] = TinyModel.Tensor(shape: [2], type: type, name: "q", scales: [scale], zeroPoints: [zeroPoint])
        return tiny
    }

    @Test(arguments: [(Schema.TensorType.int8, Int64(128)), (.int8, -129), (.uint8, -1), (.uint8, 256),
                      (.int16, 32_768), (.int32, Int64(Int32.min) - 1)])
    func zeroPointsOutsideTheirTypeAreRefused(type: Schema.TensorType, zeroPoint: Int64) throws {
        let error = try #require(ModelValidationTests.invalid(Self.tensorWith(type: type, scale: 0.5, zeroPoint: zeroPoint)))
        #expect(error.location == "subgraph 0, tensor 2 'q'")
        #expect(error.reason.hasPrefix("zero point \(zeroPoint) is outside the \(type.name) range"))
    }

    @Test(arguments: [Float.nan, .infinity, -1])
    func scalesThatAreNotFiniteOrNegativeAreRefused(scale: Float) throws {
        let error = try #require(ModelValidationTests.invalid(Self.tensorWith(type: .int8, scale: scale, zeroPoint: 0)))
        #expect(error.reason == "quantization scale \(scale) is not a finite number 0 or more")
    }

    @Test func edgeValuesLoad() throws {
        #expect(ModelValidationTests.loadError(Self.tensorWith(type: .int8, scale: 0, zeroPoint: -128).bytes()) == nil)
        #expect(ModelValidationTests.loadError(Self.tensorWith(type: .uint8, scale: 1e30, zeroPoint: 255).bytes()) == nil)
    }
}

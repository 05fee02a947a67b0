import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// Buffers, constants, operator kinds and metadata as the runtime reads them.
@Suite struct ModelAccessTests {
    @Test func inlineAndExternalBufferData() throws {
        var tiny = TinyModel()
        let inline: [UInt8] = (0..<8).map { UInt8($0 * 3) }
        let external: [UInt8] = (0..<8).map { UInt8(200 - $0) }
        tiny.buffers += [TinyModel.Buffer(data: inline), TinyModel.Buffer(external: external)]
        tiny.subgraphs[0].tensors[0].buffer = 1
        tiny.subgraphs[0].tensors[1].buffer = 2
        let model = try Model(bytes: tiny.bytes())
        #expect(Array(model.bufferData(1)) == inline)
        #expect(Array(model.bufferData(2)) == external)
        #expect(model.bufferData(0).isEmpty)
        #expect(try Array(#require(model.constantData(subgraph: 0, tensor: 0))) == inline)
        #expect(try Array(#require(model.constantData(subgraph: 0, tensor: 1))) == external)
        #expect(model.constantData(subgraph: 0, tensor: 2) == nil)
    }

    @Test func operatorCodeResolution() throws {
        var tiny = TinyModel()
        tiny.codes = [
            TinyModel.Code(deprecated: Int8(Schema.BuiltinOperator.conv2d.rawValue), builtin: 0),  // old models
            TinyModel.Code(deprecated: 127, builtin: Schema.BuiltinOperator.gelu.rawValue),  // codes past 127
            TinyModel.Code(deprecated: 127, builtin: 9999),  // unknown to this schema
            TinyModel.Code(deprecated: 32, builtin: 32, custom: "MyOp"),
        ]
        let model = try Model(bytes: tiny.bytes())
        #expect(model.operatorKind(ofCode: 0) == .builtin(.conv2d))
        #expect(model.operatorKind(ofCode: 1) == .builtin(.gelu))
        #expect(model.operatorKind(ofCode: 1).name == "GELU")
        #expect(model.operatorKind(ofCode: 2).name == "BUILTIN_9999")
        #expect(model.operatorKind(ofCode: 3) == .custom("MyOp"))
        #expect(model.operatorKind(ofCode: 3).name == "MyOp")
    }

    @Test func customOptionsOfTheDetector() throws {
        let model = try Model(path: Fixtures.corpusFile("models/ssd_detector_float.tflite").path)
        let operators = model.schema.subgraphs[0].operators
        let custom = operators.indices.filter { model.operatorKind(ofCode: Int(operators[$0].opcodeIndex)) == .custom("TFLite_Detection_PostProcess") }
        #expect(custom.count == 1)
        for o in operators.indices {
            let options = model.customOptions(subgraph: 0, operator: o)
            if custom.contains(o) {
                let range = try #require(operators[o].customOptions)
                #expect(options?.baseAddress == model.bytes(range).baseAddress)
                #expect(options?.count == range.count)
            } else {
                #expect(options == nil)
            }
        }
    }

    @Test func mainSubgraphInputsAndOutputs() throws {
        var tiny = TinyModel()
        tiny.subgraphs[0].tensors[0].shape = [1, 4]
        tiny.subgraphs[0].tensors[1].shape = [3]
        tiny.subgraphs[0].tensors[2].shape = [1, 7]
        tiny.subgraphs[0].inputs = [1, 0]
        let model = try Model(bytes: tiny.bytes())
        #expect(model.mainSubgraph == model.schema.subgraphs[0])
        #expect(model.inputTensor(at: 0)?.shape == [3])
        #expect(model.inputTensor(at: 1)?.shape == [1, 4])
        #expect(model.inputTensor(at: 2) == nil)
        #expect(model.outputTensor(at: 0)?.shape == [1, 7])
        #expect(model.outputTensor(at: 1) == nil)
        #expect(model.outputTensor(at: -1) == nil)
    }

    @Test func metadataByName() throws {
        var tiny = TinyModel()
        tiny.buffers.append(TinyModel.Buffer(data: Array("licence".utf8)))
        tiny.metadata = [("min_runtime_version", 0), ("notes", 1)]
        let model = try Model(bytes: tiny.bytes())
        #expect(try Array(#require(model.metadataBuffer(named: "notes"))) == Array("licence".utf8))
        #expect(model.metadataBuffer(named: "absent") == nil)
        tiny.metadata = [("notes", 4)]
        #expect(throws: ModelError.self) { try Model(bytes: tiny.bytes()) }
    }

    /// TFLite metadata is itself a FlatBuffer with the identifier `M001`.
    @Test func efficientNetCarriesTFLiteMetadata() throws {
        let model = try Model(path: Fixtures.root.appendingPathComponent("Models/efficientnet_lite0.tflite").path)
        let metadata = try #require(model.metadataBuffer(named: "TFLITE_METADATA"))
        #expect(metadata.count > 8)
        #expect(String(decoding: metadata[4..<8], as: UTF8.self) == "M001")
    }

    /// Every constant of every corpus model has exactly shape x element-size bytes, read in
    /// place from the mapped file.
    @Test func constantsOfCorpusModelsAreInPlace() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: Fixtures.corpusFile("models").path).sorted() {
            let model = try Model(path: Fixtures.corpusFile("models/" + name).path)
            let file = model.fileBytes
            for (s, subgraph) in model.schema.subgraphs.enumerated() {
                for (t, tensor) in subgraph.tensors.enumerated() {
                    guard let data = model.constantData(subgraph: s, tensor: t) else { continue }
                    let inFile = data.baseAddress! >= file.baseAddress! && data.baseAddress! + data.count <= file.baseAddress! + file.count
                    #expect(inFile, "\(name) tensor \(t)")
                    guard tensor.sparsity == nil, let size = tensor.type.byteSize else { continue }
                    #expect(data.count == tensor.shape.reduce(1) { $0 * Int($1) } * size, "\(name) tensor \(t)")
                }
            }
        }
    }

    @Test func unreadablePaths() {
        for path in ["/nonexistent/model.tflite", Fixtures.root.path] {
            do {
                _ = try Model(path: path)
                Issue.record("\(path) loaded")
            } catch {
                guard case .io(let reported, _) = error else {
                    Issue.record("\(path): \(error)")
                    continue
                }
                #expect(reported == path)
            }
        }
    }
}

import Foundation
import MLKit
import Testing
import TestSupport
import TFLiteRuntime

/// ML Kit for Firebase's custom-model interpreter, written as its guide writes it, against
/// LiteRT's goldens, and the errors it reports for formats and inputs that do not fit.
@Suite struct ModelInterpreterTests {
    static let classifierPath = Fixtures.models.appendingPathComponent("efficientnet_lite0.tflite").path

    /// The classifier's formats: 224x224 RGB bytes in, 1000 scores as bytes (score / 256) out.
    static func classifierOptions() throws -> ModelInputOutputOptions {
        let ioOptions = ModelInputOutputOptions()
        try ioOptions.setInputFormat(index: 0, type: .uInt8, dimensions: [1, 224, 224, 3])
        try ioOptions.setOutputFormat(index: 0, type: .uInt8, dimensions: [1, 1000])
        return ioOptions
    }

    static func npy(_ path: String) throws -> NPYArray {
        try NPYArray(contentsOf: Fixtures.corpusFile(path).path)
    }

    /// Runs through ML Kit's callback API and checks that the callback comes on the main queue.
    static func run(_ interpreter: ModelInterpreter, _ inputs: ModelInputs,
                    _ options: ModelInputOutputOptions) async -> Result<ModelOutputs, NSError> {
        // The main queue, not the main thread: under `dispatchMain()` (as here) worker threads serve it.
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return await withCheckedContinuation { continuation in
            interpreter.run(inputs: inputs, options: options) { outputs, error in
                #expect(DispatchQueue.getSpecific(key: key) == true)
                switch (outputs, error) {
                case (let outputs?, nil): continuation.resume(returning: .success(outputs))
                case (nil, let error as NSError): continuation.resume(returning: .failure(error))
                default:
                    Issue.record("the callback got outputs \(String(describing: outputs)) and error \(String(describing: error))")
                    continuation.resume(returning: .failure(NSError(domain: "test", code: 0)))
                }
            }
        }
    }

    /// The error of a run that must fail, after checking its domain and code.
    static func failure(_ result: Result<ModelOutputs, NSError>, code: Int = 3) -> String {
        switch result {
        case .success: Issue.record("the run succeeded"); return ""
        case .failure(let error):
            #expect(error.domain == "MLKit")
            #expect(error.code == code)
            return error.localizedDescription
        }
    }

    @Test(arguments: ["chelsea", "coffee"])
    func guideSnippetMatchesLiteRT(photo: String) async throws {
        let localModel = CustomLocalModel(modelPath: Self.classifierPath)
        let interpreter = ModelInterpreter.modelInterpreter(localModel: localModel)
        let inputs = ModelInputs()
        try inputs.addInput(Data(try Self.npy("cases/efficientnet_lite0__\(photo)/in0.npy").data))
        let outputs = try await Self.run(interpreter, inputs, try Self.classifierOptions()).get()

        let output = try? outputs.output(index: 0) as? [[NSNumber]]
        let probabilities = try #require(output?[0]).map(\.intValue)
        let golden = try Self.npy("cases/efficientnet_lite0__\(photo)/out0.npy").values(as: UInt8.self).map(Int.init)
        #expect(probabilities.count == 1000)
        // The corpus allows one unit everywhere; the best classes must be LiteRT's, with its scores.
        #expect(zip(probabilities, golden).allSatisfy { abs($0 - $1) <= 1 })
        let rank = { (s: [Int]) in Array(s.indices.sorted { s[$0] > s[$1] || (s[$0] == s[$1] && $0 < $1) }.prefix(3)) }
        #expect(rank(probabilities) == rank(golden))
        #expect(rank(golden).map { probabilities[$0] } == rank(golden).map { golden[$0] })
    }

    @Test func nestedArraysOfNumbersAreTheSameInputAsBytes() async throws {
        let bytes = try Self.npy("cases/efficientnet_lite0__chelsea/in0.npy").data
        // [1][224][224][3], NSNumbers as ML Kit's Objective-C callers build them.
        let nested: [[[[NSNumber]]]] = [(0..<224).map { y in
            (0..<224).map { x in (0..<3).map { c in NSNumber(value: bytes[(y * 224 + x) * 3 + c]) } }
        }]
        let interpreter = ModelInterpreter.modelInterpreter(localModel: LocalModel(path: Self.classifierPath))
        let (fromBytes, fromArrays, fromFlat) = (ModelInputs(), ModelInputs(), ModelInputs())
        try fromBytes.addInput(Data(bytes))
        try fromArrays.addInput(nested)
        try fromFlat.addInput(bytes)
        let options = try Self.classifierOptions()
        let a = try await Self.run(interpreter, fromBytes, options).get().output(index: 0) as? [[NSNumber]]
        let b = try await Self.run(interpreter, fromArrays, options).get().output(index: 0) as? [[NSNumber]]
        let c = try await Self.run(interpreter, fromFlat, options).get().output(index: 0) as? [[NSNumber]]
        #expect(a != nil)
        #expect(a == b)
        #expect(a == c)
    }

    @Test(arguments: ["x0", "x1"])
    func floatInputsAndOutputsMatchLiteRT(input: String) async throws {
        let x = try Self.npy("cases/sine_float__\(input)/in0.npy").values(as: Float.self)
        let golden = try Self.npy("cases/sine_float__\(input)/out0.npy").values(as: Float.self)
        let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: Fixtures.corpusFile("models/sine_float.tflite").path))
        let ioOptions = ModelInputOutputOptions()
        try ioOptions.setInputFormat(index: 0, type: .float32, dimensions: [1, 1])
        try ioOptions.setOutputFormat(index: 0, type: .float32, dimensions: [1, 1])
        let inputs = ModelInputs()
        try inputs.addInput([[x[0]]])
        let output = try await Self.run(interpreter, inputs, ioOptions).get().output(index: 0) as? [[NSNumber]]
        let y = try #require(output?[0][0]).floatValue
        #expect(abs(y - golden[0]) <= 1e-5 + 1e-5 * abs(golden[0]))
    }

    @Test func formatsThatDisagreeWithTheModelAreErrors() async throws {
        let interpreter = ModelInterpreter.modelInterpreter(localModel: LocalModel(path: Self.classifierPath))
        let inputs = ModelInputs()
        try inputs.addInput(Data(count: 224 * 224 * 3))
        func declared(input: (ModelElementType, [NSNumber]) = (.uInt8, [1, 224, 224, 3]),
                      output: (ModelElementType, [NSNumber]) = (.uInt8, [1, 1000]),
                      inputIndex: UInt = 0, outputIndex: UInt = 0) throws -> ModelInputOutputOptions {
            let options = ModelInputOutputOptions()
            try options.setInputFormat(index: inputIndex, type: input.0, dimensions: input.1)
            try options.setOutputFormat(index: outputIndex, type: output.0, dimensions: output.1)
            return options
        }
        let wrongType = Self.failure(await Self.run(interpreter, inputs, try declared(input: (.float32, [1, 224, 224, 3]))))
        #expect(wrongType.contains("input 0 declared as FLOAT32 but the model expects UINT8 [1, 224, 224, 3]"))
        let wrongOutputCount = Self.failure(await Self.run(interpreter, inputs, try declared(output: (.uInt8, [1, 1001]))))
        #expect(wrongOutputCount.contains("output 0 declared with dimensions [1, 1001] but the model expects [1, 1000]"))
        let wrongOutputType = Self.failure(await Self.run(interpreter, inputs, try declared(output: (.int32, [1, 1000]))))
        #expect(wrongOutputType.contains("output 0 declared as INT32 but the model expects UINT8 [1, 1000]"))
        let badIndex = Self.failure(await Self.run(interpreter, inputs, try declared(outputIndex: 1)))
        #expect(badIndex.contains("output index 1 is out of range: the model has 1 outputs"))
        // The same interpreter still runs with formats that fit.
        let outputs = try await Self.run(interpreter, inputs, try Self.classifierOptions()).get()
        #expect(throws: NSError.self) { try outputs.output(index: 1) }
        #expect((try outputs.output(index: 0) as? [[NSNumber]])?[0].count == 1000)
    }

    @Test func inputsThatDoNotFitTheDeclaredFormatAreErrors() async throws {
        let interpreter = ModelInterpreter.modelInterpreter(localModel: LocalModel(path: Self.classifierPath))
        let options = try Self.classifierOptions()
        func failure(_ input: Any?) async throws -> String {
            let inputs = ModelInputs()
            if let input { try inputs.addInput(input) }
            return Self.failure(await Self.run(interpreter, inputs, options))
        }
        #expect(try await failure(nil).contains("0 inputs given; the options declare 1"))
        #expect(try await failure(Data(count: 100)).contains("input 0: 100 bytes given; uInt8 [1, 224, 224, 3] takes 150528"))
        let row = [[UInt8]](repeating: [0, 0, 0], count: 224)
        #expect(try await failure([[[UInt8]]](repeating: row, count: 224)).contains("input 0: 224 values where the declared dimensions [1, 224, 224, 3] need 1"))
        #expect(try await failure([[[[UInt8]]]](repeating: [[[UInt8]]](repeating: row, count: 223), count: 1))
            .contains("input 0: 223 values at [0] where the declared dimensions [224, 224, 3] need 224"))
        var outOfRange = [Int](repeating: 0, count: 224 * 224 * 3)
        outOfRange[7] = 256
        #expect(try await failure(outOfRange).contains("input 0: element 7 = 256 does not fit uInt8"))
        var fraction = [Double](repeating: 0, count: 224 * 224 * 3)
        fraction[2] = 0.5
        #expect(try await failure(fraction).contains("input 0: element 2 = 0.5 does not fit uInt8"))
        #expect(throws: NSError.self) { try ModelInputs().addInput("pixels") }
    }

    @Test func invalidFormatsThrowWhenDeclared() {
        let options = ModelInputOutputOptions()
        for (type, dimensions) in [(ModelElementType.unknown, [1, 4]), (.float32, []), (.float32, [1, 0]), (.uInt8, [NSNumber(value: 2.5)])] as [(ModelElementType, [NSNumber])] {
            do {
                try options.setInputFormat(index: 0, type: type, dimensions: dimensions)
                Issue.record("\(type) \(dimensions) was accepted")
            } catch let error as NSError {
                #expect(error.domain == "MLKit")
                #expect(error.code == 3)
            }
            #expect(throws: NSError.self) { try options.setOutputFormat(index: 0, type: type, dimensions: dimensions) }
        }
    }

    @Test func aMissingModelOrOptionsAreReportedByTheRun() async throws {
        let inputs = ModelInputs()
        try inputs.addInput(Data(count: 224 * 224 * 3))
        let missing = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: "/nonexistent/model.tflite"))
        #expect(Self.failure(await Self.run(missing, inputs, try Self.classifierOptions())).contains("/nonexistent/model.tflite"))
        let interpreter = ModelInterpreter.modelInterpreter(localModel: LocalModel(path: Self.classifierPath))
        #expect(Self.failure(await Self.run(interpreter, inputs, ModelInputOutputOptions())).contains("the options declare no input formats"))
        let remote = CustomRemoteModel(remoteModelSource: URLModelSource(name: "never-downloaded-\(UUID().uuidString.prefix(8))",
                                                                         manifestURL: URL(string: "http://127.0.0.1:9/model.json")!))
        let notDownloaded = ModelInterpreter.modelInterpreter(remoteModel: remote)
        #expect(Self.failure(await Self.run(notDownloaded, inputs, try Self.classifierOptions())).contains("is not downloaded"))
    }
}

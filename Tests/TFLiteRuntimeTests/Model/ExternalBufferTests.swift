import Foundation
import Testing
import TestSupport
@testable import TFLiteRuntime

/// Tensors whose data lies in other files (`Model.external_buffer_groups`, `external_buffers`,
/// `Tensor.external_buffer`): the fixtures of Scripts/make_external_buffers.py, whose goldens
/// come from LiteRT 2.3's CompiledModel (its Interpreter does not read external buffers).
@Suite struct ExternalBufferTests {
    static let folder = Fixtures.root.appendingPathComponent("Tests/Fixtures/external")

    static func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    static func golden(_ k: Int) throws -> NPYArray {
        try NPYArray(contentsOf: path("out\(k).npy"))
    }

    /// The two outputs of the model at `path` on the fixture's inputs.
    static func run(_ path: String) throws -> [Tensor] {
        let interpreter = try Interpreter(modelPath: path, options: .init(threadCount: 1))
        try interpreter.allocateTensors()
        try interpreter.copy(NPYArray(contentsOf: Self.path("in0.npy")).values(as: Float.self), toInputAt: 0)
        try interpreter.copy(NPYArray(contentsOf: Self.path("in1.npy")).values(as: Int32.self), toInputAt: 1)
        try interpreter.invoke()
        return try [interpreter.output(at: 0), interpreter.output(at: 1)]
    }

    /// The load error of the model at `path`, nil when it loads.
    static func loadError(_ path: String) -> ModelError? {
        do {
            _ = try Model(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func runsWithLiteRTsOutputs() throws {
        let outputs = try Self.run(Self.path("model.tflite"))
        let fc = try Self.golden(0), lookup = try Self.golden(1)
        #expect(outputs[0].shape == fc.shape && outputs[1].shape == lookup.shape)
        // FULLY_CONNECTED's sums may run in another order than LiteRT's (its own two CPU paths
        // differ by 2.4e-7 here); the int4 lookup is exact.
        for (ours, theirs) in zip(outputs[0].values(as: Float.self), fc.values(as: Float.self)) {
            #expect(abs(ours - theirs) <= 1e-5 * max(1, abs(theirs)))
        }
        #expect(outputs[1].values(as: Float.self) == lookup.values(as: Float.self))
    }

    @Test func givesTheInlineFormsOutputs() throws {
        let external = try Self.run(Self.path("model.tflite")), inline = try Self.run(Self.path("inline.tflite"))
        #expect(external.map(\.data) == inline.map(\.data))
    }

    /// W (offset 64) and b (offset 192) of weights.bin come from one mapping of the file, read in
    /// place: their addresses are as far apart as their offsets.
    @Test func mapsEachGroupOnceAndReadsInPlace() throws {
        let model = try Model(path: Self.path("model.tflite"))
        let names = model.schema.subgraphs[0].tensors.map(\.name)
        let wIndex = try #require(names.firstIndex(of: "w")), bIndex = try #require(names.firstIndex(of: "b"))
        let w = try #require(model.constantData(subgraph: 0, tensor: wIndex))
        let b = try #require(model.constantData(subgraph: 0, tensor: bIndex))
        #expect(w.count == 4 * 8 * 4 && b.count == 4 * 4)
        #expect(w.baseAddress!.distance(to: b.baseAddress!) == 192 - 64)
        let file = try Data(contentsOf: URL(fileURLWithPath: Self.path("weights.bin")))
        #expect(Array(w) == Array(file[64..<192]))
        #expect(Int(bitPattern: w.baseAddress!) % 64 == 0)
    }

    /// LiteRT reads the start of a slice longer than its tensor; so does this runtime.
    @Test func acceptsALongerSlice() throws {
        #expect(try Self.run(Self.path("longer-slice.tflite")).map(\.data) == Self.run(Self.path("model.tflite")).map(\.data))
    }

    /// LiteRT follows a group name with `..` or an absolute path; this runtime refuses both, so
    /// a model cannot read files outside its own folder (here `../external/weights.bin` would
    /// reach the fixture's own file, and the absolute placeholder any file).
    @Test(arguments: ["parent-directory.tflite", "absolute-path.tflite"])
    func refusesNamesLeadingOutOfTheModelsFolder(_ name: String) throws {
        do {
            _ = try Model(path: Self.path(name))
            Issue.record("\(name) loaded")
        } catch {
            #expect("\(error)".contains("external buffer group 0"), "\(error)")
            #expect("\(error)".contains("the name leads out of the model file's folder"), "\(error)")
        }
    }

    @Test(arguments: [
        ("hostile-missing-file.tflite", ["external buffer group 1 'absent.bin'", "absent.bin': No such file or directory"]),
        ("hostile-past-end.tflite", ["tensor 2 'w'", "external buffer id 100 (offset 256, length 128)", "runs past the end of the 288-byte file 'weights.bin'"]),
        ("hostile-overflow.tflite", ["tensor 2 'w'", "runs past the end of the 288-byte file"]),
        ("hostile-short.tflite", ["tensor 2 'w'", "holds 64 bytes but shape [4, 8] of FLOAT32 needs 128"]),
        ("hostile-bad-group.tflite", ["tensor 2 'w'", "is in group 7, but the model has 2 external buffer groups"]),
        ("hostile-unknown-id.tflite", ["tensor 2 'w'", "external buffer id 99 is not among the model's 4 external buffers"]),
        ("hostile-duplicate-id.tflite", ["external buffer 1", "id 100 is already the id of external buffer 0"]),
        ("hostile-unaligned.tflite", ["tensor 2 'w'", "(offset 96, length 128) does not start at a multiple of 64 bytes"]),
        ("hostile-nul-name.tflite", ["external buffer group 0", "the name is not a file name"]),
        ("hostile-empty-name.tflite", ["external buffer group 0 ''", "the name is not a file name"]),
        ("hostile-variable.tflite", ["tensor 3 'b'", "a variable tensor cannot take its data from external buffer id 101"]),
        ("hostile-inline-too.tflite", ["tensor 2 'w'", "it has data both in buffer 1 and in external buffer id 100"]),
    ])
    func refusesHostileModels(_ name: String, _ expected: [String]) throws {
        let error = try #require(Self.loadError(Self.path(name)), "\(name) loaded")
        guard case .invalid = error else {
            Issue.record("\(name): \(error) is not an invalid-model error")
            return
        }
        for text in expected {
            #expect(error.description.contains(text), "\(name): \(error)")
        }
    }

    /// LiteRT looks for the files in the working directory then; here the caller is told to
    /// load the model from its path.
    @Test func refusesExternalDataWithoutAModelFile() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.path("model.tflite"))))
        #expect(throws: ModelError.invalid(
            location: "subgraph 0, tensor 2 'w'",
            reason: "its data is in external buffer group 0 'weights.bin', a file found beside the model file, but the model was loaded from bytes; load it from its path")) {
            try Model(bytes: bytes)
        }
        #expect(throws: Never.self) { try Model(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.path("inline.tflite"))))) }
    }
}

import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// TFLite Micro's int8 audio preprocessor keeps a noise estimate (its spectral subtraction's
/// state) from frame to frame: like TFLite Micro's, it starts at zero when the interpreter is
/// allocated, carries over between invocations and starts again at the next allocation.
@Suite struct AudioFrontendStateTests {
    static func npy(_ path: String) throws -> NPYArray {
        try NPYArray(npyBytes: [UInt8](Data(contentsOf: Fixtures.peers.appendingPathComponent(path))))
    }

    @Test func noiseEstimateCarriesOverAndRestartsOnAllocation() throws {
        let interpreter = try Interpreter(modelPath: Fixtures.peers.appendingPathComponent("models/audio_preprocessor_int8.tflite").path)
        try interpreter.allocateTensors()
        let folder = "cases/tflm-examples_micro_speech_YesFeatureTest/"
        let frame = try Self.npy(folder + "in0.npy").values(as: Int16.self)
        let golden = try Self.npy(folder + "out0.npy").values(as: Int8.self)
        func run() throws -> [Int8] {
            try interpreter.copy(frame, toInputAt: 0)
            try interpreter.invoke()
            return try interpreter.output(at: 0).values(as: Int8.self)
        }
        let first = try run()
        #expect(first == golden)
        let second = try run()
        #expect(second != first, "the second frame sees the noise estimate of the first")
        try interpreter.allocateTensors()
        #expect(try run() == first)
        #expect(try run() == second)
    }
}

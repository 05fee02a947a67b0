import Testing
import TestSupport
import TFLiteRuntime

/// The optimised kernels against the reference kernels on whole corpus models: quantised
/// outputs must be identical, float outputs within the case's golden tolerance of each other.
@Suite struct ReferenceVersusOptimizedTests {
    static let caseNames = [
        "mobilenet_v2_float__chelsea", "mobilenet_v1_float__coffee", "hand_landmark_lite__astronaut",
        "efficientnet_lite0__chelsea", "mobilenet_v2_int8__chelsea", "zoo_conv2d__random", "zoo_dwconv__random",
        "zoo_fc_bmm__random", "zoo_conv2d_int8__random", "zoo_dwconv_int8__random",
        // PAD folded into convolutions, small-channel int8 first layer, LOGISTIC mask.
        "face_detection_full_range_sparse__astronaut", "ssd_detector_int8__astronaut", "selfie_segmentation__astronaut",
        // RELU folded into ADD (and into convolutions, in selfie_segmentation).
        "face_detection_short_range__astronaut",
    ]

    static func run(_ c: CorpusCase, reference: Bool, threads: Int) throws -> [Tensor] {
        var options = Interpreter.Options(threadCount: threads)
        options.useReferenceKernels = reference
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile(c.model).path, options: options)
        try interpreter.allocateTensors()
        for (i, input) in c.inputs.enumerated() {
            try interpreter.copy(NPYArray(contentsOf: Fixtures.corpusFile(input.file).path).data, toInputAt: i)
        }
        try interpreter.invoke()
        return try (0..<interpreter.outputTensorCount).map { try interpreter.output(at: $0) }
    }

    @Test(arguments: caseNames)
    func optimisedMatchesReference(_ name: String) throws {
        let c = try #require(try CorpusCase.all().first { $0.caseName == name })
        let reference = try Self.run(c, reference: true, threads: 1)
        let optimised = try Self.run(c, reference: false, threads: 2)
        for (k, (r, o)) in zip(reference, optimised).enumerated() {
            #expect(r.shape == o.shape)
            if r.dataType == .float32 {
                let tolerance = c.outputs[k].tolerance
                let atol = Float(tolerance?.atol ?? 1e-5), rtol = Float(tolerance?.rtol ?? 1e-5)
                let bad = zip(r.values(as: Float.self), o.values(as: Float.self)).filter { abs($0 - $1) > atol + rtol * abs($0) }.count
                #expect(bad == 0, "\(name) output \(k): \(bad) elements differ beyond atol \(atol) rtol \(rtol)")
            } else {
                #expect(r.data == o.data, "\(name) output \(k): quantised outputs differ")
            }
        }
    }
}

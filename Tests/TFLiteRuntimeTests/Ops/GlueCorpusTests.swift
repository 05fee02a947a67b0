import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// The corpus cases exercising the data-movement, resize, normalisation, cast and densify glue
/// and the quantised and hybrid paths bound here, run through the interpreter and compared
/// with LiteRT's goldens under each output's tolerance.
@Suite struct GlueCorpusTests {
    static let caseNames: Set<String> = [
        "zoo_pad__random", "zoo_pad_int8__random", "zoo_resize__random", "zoo_resize_int8__random",
        "zoo_split_slice__random", "zoo_split_slice_int8__random", "zoo_reshape_transpose__random",
        "zoo_reshape_transpose_int8__random", "zoo_pack_unpack__random", "zoo_pack_unpack_int8__random",
        "zoo_gather__random", "zoo_gather_int8__random", "zoo_tile__random", "zoo_tile_int8__random",
        "zoo_depth_to_space__random", "zoo_depth_to_space_int8__random", "zoo_space_depth__random",
        "zoo_space_depth_int8__random", "zoo_l2norm__random", "zoo_l2norm_int8__random", "zoo_lrn__random",
        "zoo_cast__random", "zoo_strided_slice_ext__random",
        "zoo_tconv_int8__random", "zoo_fc_bmm_int8__random", "zoo_minmax_sqdiff_int8__random",
        "zoo_softmax_int8__random", "zoo_math_unary_q_int8__random",
        "mobilenet_v2_dynamic__random", "face_detection_full_range_sparse__random",
    ]

    static let cases: [CorpusCase] = ((try? CorpusCase.all()) ?? []).filter { caseNames.contains($0.caseName) }

    @Test func everyCaseIsInTheManifest() {
        #expect(Self.cases.count == Self.caseNames.count)
    }

    @Test(arguments: cases)
    func matchesGolden(_ c: CorpusCase) throws {
        let interpreter = try Interpreter(model: Model(path: Fixtures.corpusFile(c.model).path))
        try interpreter.allocateTensors()
        for (i, input) in c.inputs.enumerated() {
            let array = try NPYArray(npyBytes: Fixtures.corpusBytes(input.file))
            try interpreter.copy(array.data, toInputAt: i)
        }
        try interpreter.invoke()
        for (k, expected) in c.outputs.enumerated() {
            let golden = try NPYArray(npyBytes: Fixtures.corpusBytes(expected.file))
            let actual = try interpreter.output(at: k)
            #expect(actual.shape == golden.shape, "\(c.caseName) output \(k) shape")
            guard actual.shape == golden.shape, let tolerance = expected.tolerance else { continue }
            let a = numbers(actual.data, golden.dtype), g = numbers(golden.data, golden.dtype)
            var bad = 0
            for (x, y) in zip(a, g) {
                switch tolerance.kind {
                case "float": if !(abs(x - y) <= (tolerance.atol ?? 0) + (tolerance.rtol ?? 0) * abs(y) || (x.isNaN && y.isNaN)) { bad += 1 }
                case "quantized": if abs(x - y) > (tolerance.maxAbsDiffUnits ?? 0) { bad += 1 }
                default: if x != y { bad += 1 }
                }
            }
            #expect(bad == 0, "\(c.caseName) output \(k): \(bad) of \(g.count) elements outside \(tolerance.kind) tolerance")
        }
    }

    /// Little-endian elements of `dtype` as doubles.
    func numbers(_ bytes: [UInt8], _ dtype: NPYArray.DType) -> [Double] {
        func read<T: BitwiseCopyable>(_: T.Type, _ convert: (T) -> Double) -> [Double] {
            bytes.withUnsafeBytes { raw in
                (0..<(bytes.count / MemoryLayout<T>.size)).map { convert(raw.loadUnaligned(fromByteOffset: $0 * MemoryLayout<T>.size, as: T.self)) }
            }
        }
        switch dtype {
        case .float32: return read(Float.self) { Double($0) }
        case .int8: return read(Int8.self) { Double($0) }
        case .uInt8, .bool: return read(UInt8.self) { Double($0) }
        case .int16: return read(Int16.self) { Double($0) }
        case .int32: return read(Int32.self) { Double($0) }
        case .int64: return read(Int64.self) { Double($0) }
        default: return read(UInt16.self) { Double($0) }
        }
    }
}

import Testing
import TFLiteRuntime

/// Glue paths the corpus reaches only partly: a STRIDED_SLICE whose begin arrives at run time
/// (dynamic output) and an int8 CONCATENATION whose inputs are quantised unlike its output.
@Suite struct DynamicAndQuantizedGlueTests {
    @Test(arguments: [Int32(1), 4, 0, 5])
    func stridedSliceWithRunTimeBegin(_ begin: Int32) throws {
        let expected = stride(from: Int(begin), to: 6, by: 2).map(Float.init)
        let model = GlueOpModel(op: .stridedSlice, options: .stridedSliceOptions(.init()),
                                  operands: [.init(shape: [6]), .init(shape: [1], type: .int32), .int32([6]), .int32([2]), .init(shape: [1])],
                                  inputs: [0, 1, 2, 3], outputs: [4])
        let interpreter = try model.interpreter()
        try interpreter.allocateTensors()
        try interpreter.copy(floatBytes((0..<6).map(Float.init)), toInputAt: 0)
        try interpreter.copy(littleEndianBytes(begin), toInputAt: 1)
        try interpreter.invoke()
        let out = try interpreter.output(at: 0)
        #expect(out.shape == [expected.count])
        #expect(out.values(as: Float.self) == expected)
    }

    @Test func int8ConcatenationRequantisesInputs() throws {
        let a: [Int8] = [-7, 0, 9, 40], b: [Int8] = [-100, -3, 5, 127]
        let (sa, za, sb, zb, sy, zy): (Float, Int64, Float, Int64, Float, Int64) = (0.5, 3, 0.25, -2, 0.5, 1)
        let model = GlueOpModel(op: .concatenation, options: .concatenationOptions(.init()),
                                  operands: [.init(shape: [4], type: .int8, scale: sa, zeroPoint: za),
                                             .init(shape: [4], type: .int8, scale: sb, zeroPoint: zb),
                                             .init(shape: [8], type: .int8, scale: sy, zeroPoint: zy)],
                                  inputs: [0, 1], outputs: [2])
        let interpreter = try model.interpreter()
        try interpreter.allocateTensors()
        try interpreter.copy(a.map { UInt8(bitPattern: $0) }, toInputAt: 0)
        try interpreter.copy(b.map { UInt8(bitPattern: $0) }, toInputAt: 1)
        try interpreter.invoke()
        // Dequantise, requantise to the output's parameters, round half away from zero, clamp.
        func requantised(_ q: [Int8], _ s: Float, _ z: Int64) -> [Int8] {
            q.map { v in
                let real = Double(s) * Double(Int64(v) - z)
                let stored = (real / Double(sy)).rounded(.toNearestOrAwayFromZero) + Double(zy)
                return Int8(max(-128, min(127, stored)))
            }
        }
        #expect(try interpreter.output(at: 0).values(as: Int8.self) == requantised(a, sa, za) + requantised(b, sb, zb))
    }
}

import Foundation
import Testing
import TestSupport
@testable import TFLiteRuntime

/// An int8 TRANSPOSE_CONV whose output shape is a model input runs the same scatter as with a
/// constant shape (checked against LiteRT by the corpus), and refuses a shape that contradicts
/// its input or filter when it is invoked. (The 16x8 form is checked against TFLite Micro's
/// goldens by PeerConformanceTests.)
@Suite struct TransposeConvRuntimeShapeTests {
    /// A stride-2 int8 TRANSPOSE_CONV from [1, 3, 3, 2] to [1, 6, 6, 3], its output shape a
    /// constant or (`shapeIsInput`) the model's second input.
    static func model(shapeIsInput: Bool) -> TinyModel {
        var m = TinyModel()
        m.codes = [TinyModel.Code(.transposeConv)]
        let filter: [Int8] = (0..<(3 * 2 * 2 * 2)).map { Int8($0 % 7) - 3 }
        m.buffers += [TinyModel.Buffer(data: [Int32(1), 6, 6, 3].withUnsafeBytes { Array($0) }),
                      TinyModel.Buffer(data: filter.map { UInt8(bitPattern: $0) })]
        m.subgraphs[0].tensors = [
            TinyModel.Tensor(shape: [4], type: .int32, buffer: shapeIsInput ? 0 : 1, name: "output_shape"),
            TinyModel.Tensor(shape: [3, 2, 2, 2], type: .int8, buffer: 2, name: "filter", scales: [0.05], zeroPoints: [0]),
            TinyModel.Tensor(shape: [1, 3, 3, 2], type: .int8, name: "x", scales: [0.1], zeroPoints: [3]),
            TinyModel.Tensor(shape: [1, 6, 6, 3], type: .int8, name: "y", scales: [0.07], zeroPoints: [-2]),
        ]
        m.subgraphs[0].inputs = shapeIsInput ? [2, 0] : [2]
        m.subgraphs[0].outputs = [3]
        m.subgraphs[0].operators = [.init(inputs: [0, 1, 2], outputs: [3],
                                          options: .transposeConvOptions(Schema.TransposeConvOptions(padding: .same, strideW: 2, strideH: 2)))]
        return m
    }

    static let input: [Int8] = (0..<18).map { Int8($0 * 11 % 29) - 14 }

    @Test func aShapeGivenAtRunTimeMatchesTheConstantShape() throws {
        let constant = try Interpreter(model: Model(bytes: Self.model(shapeIsInput: false).bytes()))
        try constant.allocateTensors()
        try constant.copy(Self.input.withUnsafeBytes { Array($0) }, toInputAt: 0)
        try constant.invoke()
        let expected = try constant.output(at: 0)

        let runtime = try Interpreter(model: Model(bytes: Self.model(shapeIsInput: true).bytes()))
        try runtime.allocateTensors()
        try runtime.copy(Self.input.withUnsafeBytes { Array($0) }, toInputAt: 0)
        try runtime.copy([Int32(1), 6, 6, 3].withUnsafeBytes { Array($0) }, toInputAt: 1)
        try runtime.invoke()
        let got = try runtime.output(at: 0)
        #expect(got.shape == [1, 6, 6, 3])
        #expect(got.data == expected.data)
        #expect(Set(got.data).count > 3, "the output is not degenerate")
    }

    @Test func aShapeThatContradictsTheFilterFailsAtInvoke() throws {
        let runtime = try Interpreter(model: Model(bytes: Self.model(shapeIsInput: true).bytes()))
        try runtime.allocateTensors()
        try runtime.copy([Int32(1), 6, 6, 5].withUnsafeBytes { Array($0) }, toInputAt: 1)
        #expect(throws: InterpreterError.invokeFailed(
            node: 0, op: "TRANSPOSE_CONV", reason: "output_shape [1, 6, 6, 5] does not agree with input [1, 3, 3, 2] and filter [3, 2, 2, 2]")) {
            try runtime.invoke()
        }
    }
}

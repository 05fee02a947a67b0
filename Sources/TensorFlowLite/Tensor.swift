import Foundation
internal import TFLiteRuntime

/// An input or output tensor of a TensorFlow Lite graph: a snapshot of its description and a
/// copy of its bytes, taken when ``Interpreter/input(at:)``, ``Interpreter/output(at:)`` or a
/// ``SignatureRunner`` handed it out.
public struct Tensor: Equatable, Hashable, Sendable {
    /// The tensor's name in the model.
    public let name: String
    /// The element type.
    public let dataType: DataType
    /// The current shape (after any resize).
    public let shape: Shape
    /// The raw little-endian bytes: the element count times the element size.
    public let data: Data
    /// The per-tensor quantisation of a quantised tensor; nil for tensors that are not (as in
    /// TensorFlowLiteSwift, also when the scale is 0).
    public let quantizationParameters: QuantizationParameters?

    /// Internal, as in TensorFlowLiteSwift: tensors come from an interpreter.
    init(name: String, dataType: DataType, shape: Shape, data: Data, quantizationParameters: QuantizationParameters? = nil) {
        self.name = name
        self.dataType = dataType
        self.shape = shape
        self.data = data
        self.quantizationParameters = quantizationParameters
    }

    /// The runtime's snapshot in this API's terms; nil for element types the API has no case
    /// for (callers throw their `invalidTensorDataType`).
    init?(_ tensor: TFLiteRuntime.Tensor) {
        guard let dataType = DataType(tensor.dataType) else { return nil }
        // A per-axis quantised tensor reports its first scale and zero point: TensorFlowLiteSwift
        // reads the per-tensor parameters only. Inputs and outputs are quantised per tensor.
        let quantization = tensor.quantizationParameters.flatMap { q in
            q.scale == 0 ? nil : QuantizationParameters(scale: q.scale, zeroPoint: q.zeroPoint)
        }
        self.init(name: tensor.name, dataType: dataType, shape: Shape(tensor.shape), data: Data(tensor.data),
                  quantizationParameters: quantization)
    }
}

import TFLiteRuntime

/// A model of one builtin operator for glue tests: the node reads `inputs` (tensor indices),
/// writes `outputs`, and every tensor is either a model input (no values) or a constant.
struct GlueOpModel {
    /// One tensor: constants carry their little-endian bytes.
    struct Operand {
        var shape: [Int32]
        var type: Schema.TensorType = .float32
        var constant: [UInt8]? = nil
        var scale: Float? = nil
        var zeroPoint: Int64 = 0

        /// A constant int32 tensor.
        static func int32(_ values: [Int32], shape: [Int32]? = nil) -> Operand {
            Operand(shape: shape ?? [Int32(values.count)], type: .int32, constant: values.flatMap(littleEndianBytes))
        }

        /// A constant int64 tensor.
        static func int64(_ values: [Int64], shape: [Int32]? = nil) -> Operand {
            Operand(shape: shape ?? [Int32(values.count)], type: .int64, constant: values.flatMap(littleEndianBytes))
        }
    }

    var op: Schema.BuiltinOperator
    var options: Schema.BuiltinOptions? = nil
    var operands: [Operand]
    var inputs: [Int32]
    var outputs: [Int32]

    /// The model's bytes; the non-constant operands read by the node are the model's inputs.
    func bytes() -> [UInt8] {
        var tiny = TinyModel()
        tiny.codes = [TinyModel.Code(op)]
        tiny.buffers = [TinyModel.Buffer()]
        var tensors: [TinyModel.Tensor] = []
        for (i, operand) in operands.enumerated() {
            var t = TinyModel.Tensor(shape: operand.shape, type: operand.type, name: "t\(i)")
            if let data = operand.constant {
                t.buffer = UInt32(tiny.buffers.count)
                tiny.buffers.append(TinyModel.Buffer(data: data))
            }
            if let scale = operand.scale {
                t.scales = [scale]
                t.zeroPoints = [operand.zeroPoint]
            }
            tensors.append(t)
        }
        let modelInputs = inputs.filter { $0 >= 0 && operands[Int($0)].constant == nil }
        tiny.subgraphs = [TinyModel.Subgraph(tensors: tensors, inputs: modelInputs, outputs: outputs,
                                             operators: [TinyModel.Operator(opcodeIndex: 0, inputs: inputs, outputs: outputs, options: options)])]
        return tiny.bytes()
    }

    /// An interpreter over the model, tensors not yet allocated.
    func interpreter() throws -> Interpreter {
        try Interpreter(model: Model(bytes: bytes()))
    }
}

/// The little-endian bytes of a fixed-width value.
func littleEndianBytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
}

/// The bytes of float values, as a tensor stores them.
func floatBytes(_ values: [Float]) -> [UInt8] {
    values.flatMap { littleEndianBytes($0.bitPattern) }
}

extension InterpreterError {
    /// The reason of an invalid-node, unsupported-operator or failed-invocation error.
    var nodeReason: String? {
        switch self {
        case .invalidNode(_, _, let reason), .unsupportedOperator(_, _, let reason), .invokeFailed(_, _, let reason): return reason
        default: return nil
        }
    }
}

@testable import TFLiteRuntime

/// A model of one operator, written with ``TinyModel``: tensors with constant data become
/// weights, the others the model's inputs (in tensor order), and the op's outputs its outputs.
struct SingleOpModel {
    /// One tensor: its shape, type and, for constants, its values' bytes.
    struct Operand {
        var shape: [Int]
        var type: Schema.TensorType
        var constant: [UInt8]?

        /// A model input.
        static func input(_ shape: [Int], _ type: Schema.TensorType = .float32) -> Operand {
            Operand(shape: shape, type: type, constant: nil)
        }

        /// A constant holding `values`.
        static func constant<T: BitwiseCopyable>(_ shape: [Int], _ type: Schema.TensorType, _ values: [T]) -> Operand {
            Operand(shape: shape, type: type, constant: values.withUnsafeBytes { Array($0) })
        }

        /// An output (shape as declared in the model; prepare may change it).
        static func output(_ shape: [Int], _ type: Schema.TensorType = .float32) -> Operand {
            Operand(shape: shape, type: type, constant: nil)
        }
    }

    /// Builds an interpreter for `op` reading `inputs` and writing `outputs`, tensors allocated.
    static func interpreter(_ op: Schema.BuiltinOperator, inputs: [Operand], outputs: [Operand],
                            options: Schema.BuiltinOptions? = nil) throws -> Interpreter {
        try interpreter(TinyModel.Code(op), inputs: inputs, outputs: outputs, options: options, customOptions: nil)
    }

    /// Builds an interpreter for the custom op `code` with `options` as its custom options.
    static func interpreter(custom code: String, options: [UInt8]?, inputs: [Operand], outputs: [Operand]) throws -> Interpreter {
        let custom = Schema.BuiltinOperator.custom.rawValue
        return try interpreter(TinyModel.Code(deprecated: Int8(custom), builtin: custom, custom: code),
                               inputs: inputs, outputs: outputs, options: nil, customOptions: options)
    }

    private static func interpreter(_ code: TinyModel.Code, inputs: [Operand], outputs: [Operand],
                                    options: Schema.BuiltinOptions?, customOptions: [UInt8]?) throws -> Interpreter {
        var tiny = TinyModel()
        tiny.codes = [code]
        var tensors: [TinyModel.Tensor] = [], buffers = [TinyModel.Buffer()]
        var modelInputs: [Int32] = []
        for (i, operand) in (inputs + outputs).enumerated() {
            var buffer: UInt32 = 0
            if let data = operand.constant {
                buffers.append(TinyModel.Buffer(data: data))
                buffer = UInt32(buffers.count - 1)
            } else if i < inputs.count {
                modelInputs.append(Int32(i))
            }
            tensors.append(TinyModel.Tensor(shape: operand.shape.map(Int32.init), type: operand.type, buffer: buffer, name: "t\(i)"))
        }
        let outputIndices = (inputs.count..<inputs.count + outputs.count).map(Int32.init)
        tiny.buffers = buffers
        tiny.subgraphs = [TinyModel.Subgraph(
            tensors: tensors, inputs: modelInputs, outputs: outputIndices,
            operators: [TinyModel.Operator(opcodeIndex: 0, inputs: (0..<inputs.count).map(Int32.init), outputs: outputIndices,
                                           options: options, customOptions: customOptions)])]
        let interpreter = try Interpreter(model: try Model(bytes: tiny.bytes()))
        try interpreter.allocateTensors()
        return interpreter
    }
}

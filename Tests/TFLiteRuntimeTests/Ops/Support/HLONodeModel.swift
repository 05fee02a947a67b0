@testable import TFLiteRuntime

/// A model whose subgraph 0 runs one node (a StableHLO op with `builtin_options_2`, or control flow)
/// reading `inputs` and writing `outputs`, as ``SingleOpModel`` lays them out; `regions`
/// become subgraphs 1, 2, ... (bodies, branches, decompositions).
struct HLONodeModel {
    typealias Operand = SingleOpModel.Operand

    /// A subgraph of its own: tensors, its parameters and results, and operators by code.
    struct Region {
        var tensors: [TinyModel.Tensor]
        var inputs: [Int32]
        var outputs: [Int32]
        var operators: [(code: Schema.BuiltinOperator, inputs: [Int32], outputs: [Int32])]

        /// Two scalar parameters of `type` combined by `op` into the result; with no `op`, the
        /// result is the second parameter.
        static func binary(_ op: Schema.BuiltinOperator?, _ type: Schema.TensorType = .float32) -> Region {
            let scalar = { (name: String) in TinyModel.Tensor(shape: [], type: type, name: name) }
            guard let op else { return Region(tensors: [scalar("a"), scalar("b")], inputs: [0, 1], outputs: [1], operators: []) }
            return Region(tensors: [scalar("a"), scalar("b"), scalar("r")], inputs: [0, 1], outputs: [2], operators: [(op, [0, 1], [2])])
        }

        /// One parameter of `shape` and `type` returned `op(x, x)`, or unchanged with no `op`.
        static func unary(_ op: Schema.BuiltinOperator?, shape: [Int32], _ type: Schema.TensorType = .float32) -> Region {
            let t = { (name: String) in TinyModel.Tensor(shape: shape, type: type, name: name) }
            guard let op else { return Region(tensors: [t("x")], inputs: [0], outputs: [0], operators: []) }
            return Region(tensors: [t("x"), t("y")], inputs: [0], outputs: [1], operators: [(op, [0, 0], [1])])
        }
    }

    var op: Schema.BuiltinOperator
    var inputs: [Operand]
    var outputs: [Operand]
    var options2: Schema.BuiltinOptions2?
    var options: Schema.BuiltinOptions? = nil
    var regions: [Region] = []

    func tiny() -> TinyModel {
        var codes: [Schema.BuiltinOperator] = [op]
        func code(_ c: Schema.BuiltinOperator) -> UInt32 {
            if let k = codes.firstIndex(of: c) { return UInt32(k) }
            codes.append(c)
            return UInt32(codes.count - 1)
        }
        var tiny = TinyModel()
        var tensors: [TinyModel.Tensor] = [], buffers = [TinyModel.Buffer()], modelInputs: [Int32] = []
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
        var main = TinyModel.Operator(opcodeIndex: 0, inputs: (0..<inputs.count).map(Int32.init), outputs: outputIndices)
        main.options = options
        main.options2 = options2
        var subgraphs = [TinyModel.Subgraph(tensors: tensors, inputs: modelInputs, outputs: outputIndices, operators: [main])]
        for r in regions {
            let ops = r.operators.map { TinyModel.Operator(opcodeIndex: code($0.code), inputs: $0.inputs, outputs: $0.outputs) }
            subgraphs.append(TinyModel.Subgraph(tensors: r.tensors, inputs: r.inputs, outputs: r.outputs, operators: ops))
        }
        tiny.codes = codes.map { TinyModel.Code($0) }
        tiny.buffers = buffers
        tiny.subgraphs = subgraphs
        return tiny
    }

    /// An interpreter with its tensors allocated (so every prepare check has run).
    func interpreter() throws -> Interpreter {
        let interpreter = try Interpreter(model: try Model(bytes: tiny().bytes()))
        try interpreter.allocateTensors()
        return interpreter
    }
}

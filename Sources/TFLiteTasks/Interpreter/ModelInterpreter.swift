import Foundation
import TFLiteRuntime

/// Runs any model with declared input/output formats (ML Kit's `ModelInterpreter`): inputs
/// as bytes, typed arrays or nested arrays; outputs as bytes, typed arrays or nested arrays.
public final class ModelInterpreter: Sendable {
    /// The model.
    public let localModel: LocalModel
    /// The declared formats.
    public let options: ModelInputOutputOptions
    private let runner: TaskRunner

    /// Prepares `localModel` and checks `options` against it: every model input and output
    /// must be declared with the model's type and shape (an input may declare another shape
    /// where the model has a dynamic dimension).
    public init(localModel: LocalModel, options: ModelInputOutputOptions) throws(TaskError) {
        self.localModel = localModel
        self.options = options
        runner = try TaskRunner(model: localModel.model)
        try runner.withInterpreter { interpreter in
            try Self.check(options, interpreter, localModel.model)
        }
    }

    private static func check(_ o: ModelInputOutputOptions, _ it: Interpreter, _ model: Model) throws {
        for (role, formats, count) in [("input", o.inputFormats, it.inputTensorCount), ("output", o.outputFormats, it.outputTensorCount)] {
            if let extra = formats.keys.filter({ $0 >= count }).min() {
                throw TaskError.invalidFormat("\(role) index \(extra) is out of range: the model has \(count) \(role)s")
            }
            for i in 0..<count {
                let t = role == "input" ? try it.input(at: i) : try it.output(at: i)
                guard let f = formats[i] else {
                    throw TaskError.invalidFormat("\(role) \(i) is not declared; the model expects \(t.dataType) \(t.shape)")
                }
                guard f.type.dataType == t.dataType else {
                    throw TaskError.invalidFormat("\(role) \(i) declared as \(f.type.dataType) but the model expects \(t.dataType) \(t.shape)")
                }
                if f.dimensions != t.shape {
                    let signature = role == "input" ? Self.shapeSignature(model, input: i) : nil
                    let resizable = signature.map { s in
                        s.count == f.dimensions.count && zip(s, f.dimensions).allSatisfy { $0 == -1 || $0 == $1 }
                    } ?? false
                    guard resizable else {
                        throw TaskError.invalidFormat("\(role) \(i) declared with dimensions \(f.dimensions) but the model expects \(t.shape)")
                    }
                    try it.resizeInput(at: i, to: f.dimensions)
                    try it.allocateTensors()
                }
            }
        }
    }

    private static func shapeSignature(_ model: Model, input i: Int) -> [Int]? {
        guard let s = model.inputTensor(at: i)?.shapeSignature, !s.isEmpty else { return nil }
        return s.map(Int.init)
    }

    /// Runs the model once.
    public func run(inputs: ModelInputs) throws(TaskError) -> ModelOutputs {
        guard inputs.values.count == options.inputFormats.count else {
            throw .invalidFormat("\(inputs.values.count) inputs given; the model takes \(options.inputFormats.count)")
        }
        return try runner.withInterpreter { interpreter in
            for (i, value) in inputs.values.enumerated() {
                guard let f = options.inputFormats[i] else { throw TaskError.invalidFormat("input \(i) is not declared") }
                let bytes = try value.bytes(as: f.type, index: i)
                let expected = f.dimensions.reduce(1, *) * f.type.byteSize
                guard bytes.count == expected else {
                    throw TaskError.invalidFormat("input \(i): \(bytes.count) bytes given; \(f.type) \(f.dimensions) needs \(expected)")
                }
                try interpreter.copy(bytes, toInputAt: i)
            }
            try interpreter.invoke()
            var outs: [Tensor] = []
            for i in 0..<interpreter.outputTensorCount { outs.append(try interpreter.output(at: i)) }
            return ModelOutputs(tensors: outs)
        }
    }

    /// The async form of ``run(inputs:)``.
    public func process(_ inputs: ModelInputs) async throws -> ModelOutputs {
        try run(inputs: inputs)
    }
}

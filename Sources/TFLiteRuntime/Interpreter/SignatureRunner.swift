/// Runs one SignatureDef of a model: inputs and outputs addressed by their signature names.
/// Holds its own tensors, so it can be used beside the interpreter that made it.
public final class SignatureRunner {
    /// The signature's key (e.g. `serving_default`).
    public let key: String
    /// Input names in the order the SignatureDef lists them.
    public let inputNames: [String]
    /// Output names in the order the SignatureDef lists them.
    public let outputNames: [String]
    let inputTensors: [String: Int]
    let outputTensors: [String: Int]
    let executor: SubgraphExecutor

    init(signature: Schema.SignatureDef, executor: SubgraphExecutor) {
        key = signature.signatureKey ?? ""
        inputNames = signature.inputs.map { $0.name ?? "" }
        outputNames = signature.outputs.map { $0.name ?? "" }
        inputTensors = Dictionary(signature.inputs.map { ($0.name ?? "", Int($0.tensorIndex)) }, uniquingKeysWith: { a, _ in a })
        outputTensors = Dictionary(signature.outputs.map { ($0.name ?? "", Int($0.tensorIndex)) }, uniquingKeysWith: { a, _ in a })
        self.executor = executor
    }

    /// Resizes the named input (dynamic dimensions only); call `allocateTensors()` after.
    public func resizeInput(named name: String, to shape: [Int]) throws(InterpreterError) {
        let t = try tensor(name, in: inputTensors)
        guard let k = executor.inputs.firstIndex(of: t) else { throw .signatureNotFound(name) }
        try executor.resizeInput(k, to: shape)
    }

    /// The named input's current shape (available before `allocateTensors()`).
    public func inputShape(named name: String) throws(InterpreterError) -> [Int] {
        executor.tensors[try tensor(name, in: inputTensors)].shape
    }

    /// Plans memory and prepares the signature's subgraph.
    public func allocateTensors() throws(InterpreterError) {
        try executor.allocate()
    }

    /// Copies raw bytes into the named input (packed strings for a string input, see
    /// `Interpreter.copy(_:toInputAt:)`).
    public func copy(_ data: [UInt8], toInputNamed name: String) throws(InterpreterError) {
        let t = try tensor(name, in: inputTensors)
        try executor.writeBytes(data, to: t)
    }

    /// Runs the signature's subgraph.
    public func invoke() throws(InterpreterError) {
        executor.environment.control.begin()
        try executor.invoke()
    }

    /// The named input tensor.
    public func input(named name: String) throws(InterpreterError) -> Tensor {
        try executor.snapshot(tensor(name, in: inputTensors))
    }

    /// The named output tensor, after `invoke()`.
    public func output(named name: String) throws(InterpreterError) -> Tensor {
        try executor.snapshot(tensor(name, in: outputTensors))
    }

    func tensor(_ name: String, in table: [String: Int]) throws(InterpreterError) -> Int {
        guard let t = table[name] else { throw .signatureNotFound("\(key)/\(name)") }
        return t
    }
}

extension Interpreter {
    /// The keys of the model's SignatureDefs, in model order.
    public var signatureKeys: [String] {
        model.schema.signatureDefs.map { $0.signatureKey ?? "" }
    }

    /// A runner for the signature with this key.
    public func signatureRunner(key: String) throws(InterpreterError) -> SignatureRunner {
        guard let signature = model.schema.signatureDefs.first(where: { $0.signatureKey == key }) else {
            throw .signatureNotFound(key)
        }
        let executor = SubgraphExecutor(environment: environment, subgraph: Int(signature.subgraphIndex))
        return SignatureRunner(signature: signature, executor: executor)
    }
}

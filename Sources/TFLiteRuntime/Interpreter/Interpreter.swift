import Kernels
import KernelSelection

/// Runs a TensorFlow Lite model, with the API shape of TensorFlowLiteSwift's `Interpreter`:
/// create, `allocateTensors()`, `copy(_:toInputAt:)`, `invoke()`, read `output(at:)`.
///
/// An interpreter is not thread-safe: use one per thread. Many interpreters can share one
/// `Model` (its weights are read in place and never copied).
///
/// ```swift
/// let interpreter = try Interpreter(modelPath: "model.tflite")
/// try interpreter.allocateTensors()
/// try interpreter.copy(inputBytes, toInputAt: 0)
/// try interpreter.invoke()
/// let scores = try interpreter.output(at: 0).values(as: Float.self)
/// ```
public final class Interpreter {
    /// The model this interpreter runs.
    public let model: Model
    /// The options it was created with.
    public let options: Options
    let main: SubgraphExecutor
    let environment: ExecutionEnvironment

    /// Loads the model at `modelPath` (memory-mapped) and prepares an interpreter for it.
    public convenience init(modelPath: String, options: Options = Options()) throws(InterpreterError) {
        let model: Model
        do {
            model = try Model(path: modelPath)
        } catch {
            throw .model("\(error)")
        }
        try self.init(model: model, options: options)
    }

    /// Prepares an interpreter for an already loaded model.
    public init(model: Model, options: Options = Options()) throws(InterpreterError) {
        guard !model.schema.subgraphs.isEmpty else { throw .model("the model has no subgraphs") }
        self.model = model
        self.options = options
        environment = ExecutionEnvironment(model: model, options: options)
        main = SubgraphExecutor(environment: environment, subgraph: 0)
    }

    /// Number of model inputs.
    /// The instruction-set variant of the optimised kernels this interpreter runs.
    public var instructionSet: InstructionSet { environment.kernels.instructionSet }

    /// The instruction-set variant an interpreter takes when its options name none: the widest
    /// this CPU runs, or the one `TFLITE_ISA` lowers it to.
    public static var defaultInstructionSet: InstructionSet { KernelSelection.best.instructionSet }

    /// The variants this build holds that this CPU can run, lowest first.
    public static var supportedInstructionSets: [InstructionSet] { KernelSelection.supported.map(\.instructionSet) }

    public var inputTensorCount: Int { main.inputs.count }
    /// Number of model outputs.
    public var outputTensorCount: Int { main.outputs.count }

    /// Plans memory and prepares every node for the current input shapes. Call it after
    /// creating the interpreter and after any `resizeInput(at:to:)`.
    public func allocateTensors() throws(InterpreterError) {
        try main.allocate()
    }

    /// Runs the model on the current input data.
    public func invoke() throws(InterpreterError) {
        environment.control.begin()
        try main.invoke()
    }

    /// Changes input `index` to `shape`. Only dimensions the model declares dynamic (-1 in
    /// its shape signature) can change. Call `allocateTensors()` afterwards.
    public func resizeInput(at index: Int, to shape: [Int]) throws(InterpreterError) {
        try checkIndex(index, count: inputTensorCount, role: "input")
        try main.resizeInput(index, to: shape)
    }

    /// The input tensor at `index`: description and current bytes.
    public func input(at index: Int) throws(InterpreterError) -> Tensor {
        try checkIndex(index, count: inputTensorCount, role: "input")
        return try main.snapshot(main.inputs[index])
    }

    /// The output tensor at `index` after `invoke()`.
    public func output(at index: Int) throws(InterpreterError) -> Tensor {
        try checkIndex(index, count: outputTensorCount, role: "output")
        return try main.snapshot(main.outputs[index])
    }

    /// Copies raw bytes into input `index`; their count must equal the tensor's byte size. For
    /// a string input the bytes are TFLite's packed layout (``PackedStrings``) holding as many
    /// strings as the input's shape.
    public func copy(_ data: [UInt8], toInputAt index: Int) throws(InterpreterError) {
        try checkIndex(index, count: inputTensorCount, role: "input")
        try main.writeBytes(data, to: main.inputs[index])
    }

    /// Copies the UTF-8 bytes of `strings` into string input `index`, one per element of its
    /// current shape (resize it first for another count).
    public func copy(_ strings: [String], toInputAt index: Int) throws(InterpreterError) {
        try checkIndex(index, count: inputTensorCount, role: "input")
        let t = main.inputs[index]
        guard main.tensors[t].type == .string else {
            throw .invalidDataType(tensor: main.tensors[t].name, expected: main.tensors[t].type, actual: .string)
        }
        try main.writeBytes(PackedStrings.encode(strings), to: t)
    }

    /// Copies typed values into input `index`; `T` must match the tensor's type
    /// (`Float` for float32, `UInt8` for uint8, `Int8` for int8, `Int32` for int32, ...).
    public func copy<T: TensorElement>(_ values: [T], toInputAt index: Int) throws(InterpreterError) {
        try checkIndex(index, count: inputTensorCount, role: "input")
        let t = main.inputs[index]
        let record = main.tensors[t]
        guard record.type == T.dataType else {
            throw .invalidDataType(tensor: record.name, expected: record.type, actual: T.dataType)
        }
        try main.write(values, to: t)
    }

    /// Bytes of tensor memory planned in the arena for the current shapes, and the sum of
    /// the sizes of the tensors placed in it (what they would need without sharing).
    public var memoryStatistics: (arenaBytes: Int, tensorBytes: Int) {
        (main.arenaSize, main.plannedTensorBytes)
    }

    private func checkIndex(_ index: Int, count: Int, role: String) throws(InterpreterError) {
        guard index >= 0, index < count else { throw .invalidTensorIndex(index: index, count: count, role: role) }
    }
}

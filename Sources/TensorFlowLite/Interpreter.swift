import Foundation
internal import TFLiteRuntime

/// Runs a TensorFlow Lite model: TensorFlowLiteSwift's `Interpreter`, on this package's
/// pure-Swift runtime.
///
/// ```swift
/// let interpreter = try Interpreter(modelPath: "model.tflite")
/// try interpreter.allocateTensors()
/// try interpreter.copy(inputData, toInputAt: 0)
/// try interpreter.invoke()
/// let output = try interpreter.output(at: 0)
/// ```
///
/// - Note: An interpreter is not thread-safe: use one per thread.
public final class Interpreter {
    /// The options the interpreter was created with; nil when none were given.
    public let options: Options?
    /// The delegates it was given. There is no accelerator: see ``Delegate``.
    public let delegates: [any Delegate]?

    private let runtime: TFLiteRuntime.Interpreter
    /// Whether `invoke()` has succeeded since the last allocation: until it has, outputs whose
    /// shape depends on input values have neither shape nor bytes.
    private var hasInvokedSinceAllocation = false

    /// Loads the model at `modelPath` (memory-mapped; the weights are read in place).
    ///
    /// - Parameters:
    ///   - modelPath: The path of a `.tflite` file.
    ///   - options: The configuration; nil takes the defaults.
    ///   - delegates: Accepted and ignored (see ``Delegate``).
    /// - Throws: ``InterpreterError/failedToLoadModel`` when the file is missing or not a valid
    ///   model, ``InterpreterError/failedToCreateInterpreter`` when no interpreter can run it.
    public convenience init(modelPath: String, options: Options? = nil, delegates: [any Delegate]? = nil) throws {
        let model = try ErrorReporter.replacingError(with: InterpreterError.failedToLoadModel) { try Model(path: modelPath) }
        try self.init(model: model, options: options, delegates: delegates)
    }

    /// Loads a model from its bytes (copied into memory the model owns).
    ///
    /// - Throws: As ``init(modelPath:options:delegates:)``.
    public convenience init(modelData: Data, options: Options? = nil, delegates: [any Delegate]? = nil) throws {
        let model = try ErrorReporter.replacingError(with: InterpreterError.failedToLoadModel) { try Model(bytes: [UInt8](modelData)) }
        try self.init(model: model, options: options, delegates: delegates)
    }

    private init(model: Model, options: Options?, delegates: [any Delegate]?) throws {
        runtime = try ErrorReporter.replacingError(with: InterpreterError.failedToCreateInterpreter) {
            try TFLiteRuntime.Interpreter(model: model, options: (options ?? Options()).runtimeOptions)
        }
        self.options = options
        self.delegates = delegates
    }

    /// The number of the model's inputs.
    public var inputTensorCount: Int { runtime.inputTensorCount }

    /// The number of the model's outputs.
    public var outputTensorCount: Int { runtime.outputTensorCount }

    /// The keys of the model's SignatureDefs, in model order.
    public var signatureKeys: [String] { runtime.signatureKeys }

    /// Runs the model on the current input data.
    ///
    /// - Throws: ``InterpreterError/allocateTensorsRequired`` before `allocateTensors()` (or
    ///   after a resize), ``InterpreterError/tensorFlowLiteError(_:)`` when a kernel fails.
    public func invoke() throws {
        hasInvokedSinceAllocation = false
        do {
            try runtime.invoke()
        } catch {
            throw InterpreterError(error, unallocated: .allocateTensorsRequired)
        }
        hasInvokedSinceAllocation = true
    }

    /// The input tensor at `index`: its description and a copy of its bytes.
    ///
    /// - Throws: ``InterpreterError/invalidTensorIndex(index:maxIndex:)``,
    ///   ``InterpreterError/allocateTensorsRequired`` before tensors are allocated.
    public func input(at index: Int) throws -> Tensor {
        try checkIndex(index, count: inputTensorCount)
        return try converted(unallocated: .allocateTensorsRequired) { () throws(TFLiteRuntime.InterpreterError) in
            try runtime.input(at: index)
        }
    }

    /// The output tensor at `index`. After `allocateTensors()` an output of fixed shape can be
    /// read (for its shape and type) before `invoke()`; one shaped by input values cannot.
    ///
    /// - Throws: ``InterpreterError/invalidTensorIndex(index:maxIndex:)``,
    ///   ``InterpreterError/invokeInterpreterRequired`` before tensors are allocated, or before
    ///   `invoke()` for an output whose shape depends on input values.
    public func output(at index: Int) throws -> Tensor {
        try checkIndex(index, count: outputTensorCount)
        if runtime.outputShapeDependsOnValues(at: index), !hasInvokedSinceAllocation {
            throw InterpreterError.invokeInterpreterRequired
        }
        return try converted(unallocated: .invokeInterpreterRequired) { () throws(TFLiteRuntime.InterpreterError) in
            try runtime.output(at: index)
        }
    }

    /// The tensor `read` returns, in this API's terms; `unallocated` is the error for a tensor
    /// not allocated yet.
    private func converted(unallocated: InterpreterError,
                           _ read: () throws(TFLiteRuntime.InterpreterError) -> TFLiteRuntime.Tensor) throws -> Tensor {
        let tensor: TFLiteRuntime.Tensor
        do {
            tensor = try read()
        } catch {
            throw InterpreterError(error, unallocated: unallocated)
        }
        guard let converted = Tensor(tensor) else { throw InterpreterError.invalidTensorDataType }
        return converted
    }

    /// Gives the input at `index` a new shape, as LiteRT's (non-strict) resize does: any rank
    /// and extents, not only the dimensions the model marks dynamic. Whether the graph can
    /// take the shape is found by the `allocateTensors()` that must follow.
    ///
    /// - Throws: ``InterpreterError/invalidTensorIndex(index:maxIndex:)``,
    ///   ``InterpreterError/failedToResizeInputTensor(index:)`` for a dimension below 1 or a
    ///   shape larger than the memory limit.
    public func resizeInput(at index: Int, to shape: Tensor.Shape) throws {
        try checkIndex(index, count: inputTensorCount)
        hasInvokedSinceAllocation = false
        try ErrorReporter.replacingError(with: InterpreterError.failedToResizeInputTensor(index: index)) {
            try runtime.resizeInput(at: index, to: shape.dimensions, strict: false)
        }
    }

    /// Copies `data` into the input at `index` and returns that input.
    ///
    /// - Throws: ``InterpreterError/invalidTensorIndex(index:maxIndex:)``,
    ///   ``InterpreterError/invalidTensorDataCount(provided:required:)`` when `data.count` is
    ///   not the tensor's byte size, ``InterpreterError/allocateTensorsRequired`` before
    ///   tensors are allocated.
    @discardableResult
    public func copy(_ data: Data, toInputAt index: Int) throws -> Tensor {
        try checkIndex(index, count: inputTensorCount)
        do {
            try runtime.copy([UInt8](data), toInputAt: index)
        } catch .invalidDataSize(_, let expected, let actual) {
            throw InterpreterError.invalidTensorDataCount(provided: actual, required: expected)
        } catch .tensorsNotAllocated {
            throw InterpreterError.allocateTensorsRequired
        } catch {
            ErrorReporter.report(error)
            throw InterpreterError.failedToCopyDataToInputTensor
        }
        return try input(at: index)
    }

    /// Prepares the graph for the current input shapes and plans tensor memory. Call it after
    /// creating the interpreter and after resizing inputs.
    ///
    /// - Throws: ``InterpreterError/failedToAllocateTensors`` when the graph cannot run with
    ///   these shapes or has an operator this runtime lacks; the reason goes to standard error.
    public func allocateTensors() throws {
        hasInvokedSinceAllocation = false
        try ErrorReporter.replacingError(with: InterpreterError.failedToAllocateTensors) { try runtime.allocateTensors() }
    }

    /// A runner for the SignatureDef with this key, its tensors allocated. It has tensors of
    /// its own, apart from the interpreter's.
    ///
    /// - Throws: ``SignatureRunnerError/failedToCreateSignatureRunner(signatureKey:)`` for an
    ///   unknown key, ``SignatureRunnerError/failedToAllocateTensors`` when its graph cannot
    ///   be prepared.
    public func signatureRunner(with key: String) throws -> SignatureRunner {
        guard signatureKeys.contains(key) else {
            throw SignatureRunnerError.failedToCreateSignatureRunner(signatureKey: key)
        }
        return try SignatureRunner(interpreter: runtime, signatureKey: key)
    }

    private func checkIndex(_ index: Int, count: Int) throws {
        guard index >= 0, index < count else {
            throw InterpreterError.invalidTensorIndex(index: index, maxIndex: count - 1)
        }
    }
}

import Foundation
internal import TFLiteRuntime

/// Runs one SignatureDef of a model, its inputs and outputs addressed by their names in the
/// signature: TensorFlowLiteSwift's `SignatureRunner`. Get one from
/// ``Interpreter/signatureRunner(with:)``.
///
/// - Note: A signature runner is not thread-safe.
public final class SignatureRunner {
    /// The signature's key.
    public let signatureKey: String

    /// The signature's input names, in the order the SignatureDef lists them.
    public var inputs: [String] { runtime.inputNames }

    /// The signature's output names, in the order the SignatureDef lists them.
    public var outputs: [String] { runtime.outputNames }

    private let runtime: TFLiteRuntime.SignatureRunner
    /// Set by a resize, cleared by a successful allocation.
    private var isTensorsAllocationNeeded = true
    /// Whether `invoke(with:)` has succeeded since the last allocation (see
    /// ``output(named:)``).
    private var hasInvokedSinceAllocation = false

    /// Makes the runner and allocates its tensors.
    init(interpreter: TFLiteRuntime.Interpreter, signatureKey: String) throws {
        do {
            runtime = try interpreter.signatureRunner(key: signatureKey)
        } catch {
            throw SignatureRunnerError.failedToCreateSignatureRunner(signatureKey: signatureKey)
        }
        self.signatureKey = signatureKey
        try allocateTensors()
    }

    /// Allocates tensors if a resize asks for it, copies each input's data into the input of
    /// that name, and runs the signature.
    ///
    /// - Throws: ``SignatureRunnerError/failedToGetTensor(tensorType:nameInSignature:)`` for an
    ///   unknown input name, ``SignatureRunnerError/invalidTensorDataCount(provided:required:)``,
    ///   ``SignatureRunnerError/failedToInvokeSignature(signatureKey:)`` when a kernel fails.
    public func invoke(with inputs: [String: Data]) throws {
        try allocateTensors()
        for (name, data) in inputs {
            try copy(data, toInputNamed: name)
        }
        hasInvokedSinceAllocation = false
        try ErrorReporter.replacingError(with: SignatureRunnerError.failedToInvokeSignature(signatureKey: signatureKey)) {
            try runtime.invoke()
        }
        hasInvokedSinceAllocation = true
    }

    /// The input of this name in the signature.
    ///
    /// - Throws: ``SignatureRunnerError/failedToGetTensor(tensorType:nameInSignature:)`` for an
    ///   unknown name, ``SignatureRunnerError/allocateTensorsRequired`` after a resize until
    ///   tensors are allocated again.
    public func input(named name: String) throws -> Tensor {
        guard inputs.contains(name) else {
            throw SignatureRunnerError.failedToGetTensor(tensorType: "input", nameInSignature: name)
        }
        return try converted { () throws(TFLiteRuntime.InterpreterError) in try runtime.input(named: name) }
    }

    /// The output of this name in the signature. Before `invoke(with:)` it holds no results,
    /// but its name, type and (fixed) shape can be read.
    ///
    /// - Throws: ``SignatureRunnerError/failedToGetTensor(tensorType:nameInSignature:)`` for an
    ///   unknown name, ``SignatureRunnerError/allocateTensorsRequired`` after a resize until
    ///   tensors are allocated again, and before the signature runs for an output whose shape
    ///   depends on input values.
    public func output(named name: String) throws -> Tensor {
        guard outputs.contains(name) else {
            throw SignatureRunnerError.failedToGetTensor(tensorType: "output", nameInSignature: name)
        }
        if runtime.outputShapeDependsOnValues(named: name), !hasInvokedSinceAllocation {
            throw SignatureRunnerError.allocateTensorsRequired
        }
        return try converted { () throws(TFLiteRuntime.InterpreterError) in try runtime.output(named: name) }
    }

    /// Gives the named input a new shape (any rank and extents, as LiteRT's non-strict resize);
    /// tensors are allocated again by `allocateTensors()` or the next `invoke(with:)`.
    ///
    /// - Throws: ``SignatureRunnerError/failedToResizeInputTensor(inputName:)`` for an unknown
    ///   name, a dimension below 1 or a shape larger than the memory limit.
    public func resizeInput(named name: String, toShape shape: Tensor.Shape) throws {
        guard inputs.contains(name) else { throw SignatureRunnerError.failedToResizeInputTensor(inputName: name) }
        hasInvokedSinceAllocation = false
        try ErrorReporter.replacingError(with: SignatureRunnerError.failedToResizeInputTensor(inputName: name)) {
            try runtime.resizeInput(named: name, to: shape.dimensions, strict: false)
        }
        isTensorsAllocationNeeded = true
    }

    /// Copies `data` into the named input, allocating tensors first if a resize asks for it.
    ///
    /// - Throws: ``SignatureRunnerError/failedToGetTensor(tensorType:nameInSignature:)`` for an
    ///   unknown name, ``SignatureRunnerError/invalidTensorDataCount(provided:required:)`` when
    ///   `data.count` is not the tensor's byte size.
    public func copy(_ data: Data, toInputNamed name: String) throws {
        guard inputs.contains(name) else {
            throw SignatureRunnerError.failedToGetTensor(tensorType: "input", nameInSignature: name)
        }
        try allocateTensors()
        do {
            try runtime.copy([UInt8](data), toInputNamed: name)
        } catch .invalidDataSize(_, let expected, let actual) {
            throw SignatureRunnerError.invalidTensorDataCount(provided: actual, required: expected)
        } catch {
            ErrorReporter.report(error)
            throw SignatureRunnerError.failedToCopyDataToInputTensor
        }
    }

    /// Prepares the signature's graph for the current input shapes. Optional, as in
    /// TensorFlowLiteSwift: creating the runner allocates, and so do `copy(_:toInputNamed:)`
    /// and `invoke(with:)` after a resize. Does nothing when no resize asks for it.
    ///
    /// - Throws: ``SignatureRunnerError/failedToAllocateTensors`` when the graph cannot run
    ///   with these shapes; the reason goes to standard error.
    public func allocateTensors() throws {
        guard isTensorsAllocationNeeded else { return }
        hasInvokedSinceAllocation = false
        try ErrorReporter.replacingError(with: SignatureRunnerError.failedToAllocateTensors) { try runtime.allocateTensors() }
        isTensorsAllocationNeeded = false
    }

    /// A tensor read from the runtime, in this API's terms.
    private func converted(_ read: () throws(TFLiteRuntime.InterpreterError) -> TFLiteRuntime.Tensor) throws -> Tensor {
        let tensor: TFLiteRuntime.Tensor
        do {
            tensor = try read()
        } catch {
            // The names were checked: what is left is tensors not allocated after a resize.
            throw SignatureRunnerError.allocateTensorsRequired
        }
        guard let converted = Tensor(tensor) else { throw SignatureRunnerError.invalidTensorDataType }
        return converted
    }
}

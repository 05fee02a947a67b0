import Foundation
internal import TFLiteRuntime

/// Errors thrown by an ``Interpreter``: TensorFlowLiteSwift's cases, with its messages.
public enum InterpreterError: Error, Equatable, Hashable {
    /// An input or output index outside `0...maxIndex`.
    case invalidTensorIndex(index: Int, maxIndex: Int)
    /// The bytes given for an input are not as many as the tensor holds.
    case invalidTensorDataCount(provided: Int, required: Int)
    /// The tensor's element type has no ``Tensor/DataType`` case.
    case invalidTensorDataType
    /// The model file is missing, unreadable or not a valid model.
    case failedToLoadModel
    /// The model loaded but an interpreter could not be built for it.
    case failedToCreateInterpreter
    /// The input cannot take the shape (a dimension below 1, or more bytes than allowed).
    case failedToResizeInputTensor(index: Int)
    /// Copying into an input failed for a reason other than its size.
    case failedToCopyDataToInputTensor
    /// Preparing the graph for the current input shapes failed (an unsupported operator, or
    /// shapes the graph cannot take).
    case failedToAllocateTensors
    /// The tensors must be allocated (again, after a resize) first.
    case allocateTensorsRequired
    /// The output is only known after `invoke()`: tensors are not allocated, or the output's
    /// shape depends on input values.
    case invokeInterpreterRequired
    /// The runtime reported this error (a kernel failed on the input values, say).
    case tensorFlowLiteError(String)
}

extension InterpreterError: LocalizedError {
    /// The description of the error.
    public var errorDescription: String? {
        switch self {
        case .invalidTensorIndex(let index, let maxIndex):
            return "Invalid tensor index \(index), max index is \(maxIndex)."
        case .invalidTensorDataCount(let provided, let required):
            return "Provided data count \(provided) must match the required count \(required)."
        case .invalidTensorDataType:
            return "Tensor data type is unsupported or could not be determined due to a model error."
        case .failedToLoadModel:
            return "Failed to load the given model."
        case .failedToCreateInterpreter:
            return "Failed to create the interpreter."
        case .failedToResizeInputTensor(let index):
            return "Failed to resize input tensor at index \(index)."
        case .failedToCopyDataToInputTensor:
            return "Failed to copy data to input tensor."
        case .failedToAllocateTensors:
            return "Failed to allocate memory for input tensors."
        case .allocateTensorsRequired:
            return "Must call allocateTensors()."
        case .invokeInterpreterRequired:
            return "Must call invoke()."
        case .tensorFlowLiteError(let message):
            return "TensorFlow Lite Error: \(message)"
        }
    }
}

extension InterpreterError: CustomStringConvertible {
    /// The description of the error.
    public var description: String { errorDescription ?? "Unknown error." }
}

extension InterpreterError {
    /// The runtime's error in this API's terms: `unallocated` when tensors were not allocated,
    /// else the runtime's message.
    init(_ error: TFLiteRuntime.InterpreterError, unallocated: InterpreterError) {
        if case .tensorsNotAllocated = error {
            self = unallocated
        } else {
            self = .tensorFlowLiteError(error.description)
        }
    }
}

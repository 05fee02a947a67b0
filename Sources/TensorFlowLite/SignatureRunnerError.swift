import Foundation

/// Errors thrown by a ``SignatureRunner``: TensorFlowLiteSwift's cases, with its messages.
public enum SignatureRunnerError: Error, Equatable, Hashable {
    /// The bytes given for an input are not as many as the tensor holds.
    case invalidTensorDataCount(provided: Int, required: Int)
    /// The tensor's element type has no ``Tensor/DataType`` case.
    case invalidTensorDataType
    /// The model has no SignatureDef with this key.
    case failedToCreateSignatureRunner(signatureKey: String)
    /// The signature has no input (`tensorType` "input") or output ("output") of this name.
    case failedToGetTensor(tensorType: String, nameInSignature: String)
    /// No input of this name, or it cannot take the shape.
    case failedToResizeInputTensor(inputName: String)
    /// Copying into an input failed for a reason other than its size.
    case failedToCopyDataToInputTensor
    /// Preparing the signature's graph for the current input shapes failed.
    case failedToAllocateTensors
    /// Running the signature failed.
    case failedToInvokeSignature(signatureKey: String)
    /// The tensors must be allocated again (after a resize), or the output is shaped by input
    /// values and the signature has not run yet.
    case allocateTensorsRequired
}

extension SignatureRunnerError: LocalizedError {
    /// The description of the error.
    public var errorDescription: String? {
        switch self {
        case .invalidTensorDataCount(let provided, let required):
            return "Provided data count \(provided) must match the required count \(required)."
        case .invalidTensorDataType:
            return "Tensor data type is unsupported or could not be determined due to a model error."
        case .failedToCreateSignatureRunner(let signatureKey):
            return "Failed to create a signature runner. Signature with key (\(signatureKey)) not found."
        case .failedToGetTensor(let tensorType, let nameInSignature):
            return "Failed to get \(tensorType) tensor with \(tensorType) name (\(nameInSignature))."
        case .failedToResizeInputTensor(let inputName):
            return "Failed to resize input tensor with input name (\(inputName))."
        case .failedToCopyDataToInputTensor:
            return "Failed to copy data to input tensor."
        case .failedToAllocateTensors:
            return "Failed to allocate memory for input tensors."
        case .failedToInvokeSignature(let signatureKey):
            return "Failed to invoke the signature runner with key (\(signatureKey))."
        case .allocateTensorsRequired:
            return "Must call allocateTensors()."
        }
    }
}

extension SignatureRunnerError: CustomStringConvertible {
    /// The description of the error.
    public var description: String { errorDescription ?? "Unknown error." }
}

import Foundation
import Testing
import TensorFlowLite

/// The errors read as TensorFlowLiteSwift's do.
@Suite struct ErrorDescriptionTests {
    @Test func interpreterErrors() {
        let cases: [(InterpreterError, String)] = [
            (.invalidTensorIndex(index: 2, maxIndex: 1), "Invalid tensor index 2, max index is 1."),
            (.invalidTensorDataCount(provided: 3, required: 4), "Provided data count 3 must match the required count 4."),
            (.invalidTensorDataType, "Tensor data type is unsupported or could not be determined due to a model error."),
            (.failedToLoadModel, "Failed to load the given model."),
            (.failedToCreateInterpreter, "Failed to create the interpreter."),
            (.failedToResizeInputTensor(index: 0), "Failed to resize input tensor at index 0."),
            (.failedToCopyDataToInputTensor, "Failed to copy data to input tensor."),
            (.failedToAllocateTensors, "Failed to allocate memory for input tensors."),
            (.allocateTensorsRequired, "Must call allocateTensors()."),
            (.invokeInterpreterRequired, "Must call invoke()."),
            (.tensorFlowLiteError("node 3 failed"), "TensorFlow Lite Error: node 3 failed"),
        ]
        for (error, message) in cases {
            #expect(error.description == message)
            #expect(error.errorDescription == message)
            #expect(error.localizedDescription == message)
        }
    }

    @Test func signatureRunnerErrors() {
        let cases: [(SignatureRunnerError, String)] = [
            (.invalidTensorDataCount(provided: 8, required: 4), "Provided data count 8 must match the required count 4."),
            (.invalidTensorDataType, "Tensor data type is unsupported or could not be determined due to a model error."),
            (.failedToCreateSignatureRunner(signatureKey: "k"), "Failed to create a signature runner. Signature with key (k) not found."),
            (.failedToGetTensor(tensorType: "input", nameInSignature: "x"), "Failed to get input tensor with input name (x)."),
            (.failedToResizeInputTensor(inputName: "x"), "Failed to resize input tensor with input name (x)."),
            (.failedToCopyDataToInputTensor, "Failed to copy data to input tensor."),
            (.failedToAllocateTensors, "Failed to allocate memory for input tensors."),
            (.failedToInvokeSignature(signatureKey: "k"), "Failed to invoke the signature runner with key (k)."),
            (.allocateTensorsRequired, "Must call allocateTensors()."),
        ]
        for (error, message) in cases {
            #expect(error.description == message)
            #expect(error.localizedDescription == message)
        }
    }
}

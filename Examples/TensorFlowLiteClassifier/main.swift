// TensorFlowLiteSwift's API (`import TensorFlowLite`) on this package: the interpreter flow of
// Google's pod, unchanged, on the bundled classifier. Run it from the repository's root:
//
//     swift run -c release TensorFlowLiteClassifierExample
import Foundation
import TensorFlowLite

let interpreter = try Interpreter(modelPath: "Models/efficientnet_lite0.tflite")
try interpreter.allocateTensors()
let inputTensor = try interpreter.input(at: 0)              // uInt8, [1, 224, 224, 3]
let grey = Data(repeating: 128, count: inputTensor.data.count)
try interpreter.copy(grey, toInputAt: 0)
try interpreter.invoke()
let outputTensor = try interpreter.output(at: 0)
let scores = [UInt8](outputTensor.data)
print(outputTensor.dataType, outputTensor.shape.dimensions, "best class:", scores.indices.max { scores[$0] < scores[$1] }!)

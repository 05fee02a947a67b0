// The README's "Run any model": the runtime's own Interpreter on the bundled classifier, fed a
// plain grey image. Run it from the repository's root:
//
//     swift run -c release RunAnyModelExample
import TFLiteRuntime

let interpreter = try Interpreter(modelPath: "Models/efficientnet_lite0.tflite", options: .init(threadCount: 2))
try interpreter.allocateTensors()
let input = try interpreter.input(at: 0)             // name, dataType, shape, data, quantizationParameters
let grey = [UInt8](repeating: 128, count: input.elementCount)
try interpreter.copy(grey, toInputAt: 0)             // [Float], [UInt8], [Int8], [Int32], [String] or raw bytes
try interpreter.invoke()
let output = try interpreter.output(at: 0)
let scores = output.dequantized() ?? []              // quantised values through the output's scale
print(input.dataType, input.shape, "->", output.dataType, output.shape, "best class:", scores.indices.max { scores[$0] < scores[$1] } ?? -1)

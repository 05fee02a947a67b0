// The two lowest layers on their own: FlatBuffers reads a .tflite file's tables with every
// offset checked, Kernels computes on raw buffers with no model at all. Run it from the
// repository's root:
//
//     swift run -c release LowLevelExample
import FlatBuffers
import Foundation
import KernelSelection
import Kernels

let fileBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "Models/efficientnet_lite0.tflite")))
try fileBytes.withUnsafeBytes { raw in
    let buffer = try FlatBuffer(bytes: raw)                  // checks the size and root offset
    try buffer.expectIdentifier("TFL3")
    let model = try buffer.root()
    let version: UInt32 = try model.integer(0, default: 0, "Model.version")
    let subgraphs = try model.tables(2, "Model.subgraphs")
    print("schema version", version, "subgraphs", subgraphs.count, try model.string(3, "Model.description") ?? "-")
}

let logits: [Float] = [1, 2, 3, 4]
var probabilities = [Float](repeating: 0, count: logits.count)
Softmax.softmax(input: logits, rows: 1, depth: logits.count, beta: 1, output: &probabilities)
print(probabilities)                                         // sums to 1
print("optimised kernels for this CPU:", KernelSelection.best.instructionSet)

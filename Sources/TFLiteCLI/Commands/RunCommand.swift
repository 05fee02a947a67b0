import Foundation
import TFLiteRuntime

/// `tflite run`: runs a model on `.npy` inputs and writes its outputs as `.npy` files.
enum RunCommand: Command {
    static let name = "run"
    static let summary = "run a model on .npy inputs, write outputs as out0.npy, out1.npy, ..."
    static let help = """
        Usage: tflite run MODEL --input IN.npy [--input IN.npy ...] --output-dir DIR
                          [--threads N] [--signature KEY] [--time-limit SECONDS]

        Runs MODEL once. Inputs are given in model input order (signature input order with
        --signature) and must have the input's dtype; an input whose shape differs from the
        model's resizes it when the model allows (a -1 in its shape signature). Outputs are
        written to DIR as out0.npy, out1.npy, ... in model output order (signature output
        order with --signature), with the output tensors' dtype and shape, and one line
        says what was written: `wrote 2 outputs (out0.npy, out1.npy) to DIR in 12.3 ms`
        (the time to load, prepare and run the model).

        Options:
          --input FILE       an input array (.npy); repeat once per input
          --output-dir DIR   where to write the outputs (created if missing)
          --threads N        worker threads (default: one per core)
          --signature KEY    run this SignatureDef instead of the main graph
          --time-limit S     stop the run after S seconds (default 300; 0: no limit), so a
                             model whose loop never ends cannot hang the tool

        Example:
          tflite run Models/efficientnet_lite0.tflite --input in0.npy --output-dir out/
        """

    static func run(_ arguments: inout Arguments) throws {
        let inputPaths = try arguments.options("--input")
        guard let outputDir = try arguments.option("--output-dir") else { throw UsageError("--output-dir is required") }
        let threads = try arguments.intOption("--threads", in: 1...256)
        let signature = try arguments.option("--signature")
        let timeLimit = try arguments.timeLimitOption()
        let modelPath = try arguments.positionals(exactly: "MODEL")[0]

        let inputs = try inputPaths.map { path in
            do { return try NPYArray(contentsOf: path) } catch { throw CLIError("\(path): \(error)") }
        }
        // Before the run, which may take long, so that a bad folder fails at once.
        try OutputPath.makeFolder(outputDir, option: "--output-dir")
        let start = DispatchTime.now().uptimeNanoseconds
        let outputs = try ModelRunner.run(modelPath: modelPath, inputs: inputs, threads: threads, signature: signature,
                                           timeLimit: timeLimit)
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let names = outputs.indices.map { "out\($0).npy" }
        for (name, array) in zip(names, outputs) {
            do { try array.write(to: (outputDir as NSString).appendingPathComponent(name)) } catch {
                throw CLIError("cannot write output \(error)")
            }
        }
        let count = outputs.count == 1 ? "1 output" : "\(outputs.count) outputs"
        print("wrote \(count) (\(names.joined(separator: ", "))) to \(outputDir) in " + String(format: "%.1f ms", milliseconds))
    }
}

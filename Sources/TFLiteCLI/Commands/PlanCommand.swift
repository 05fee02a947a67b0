import Foundation
import TFLiteRuntime

/// `tflite plan`: shows how much tensor memory the planner needs for a model.
enum PlanCommand: Command {
    static let name = "plan"
    static let summary = "show the memory plan: arena size against the sum of tensor sizes"
    static let help = """
        Usage: tflite plan MODEL [--json]

        Prepares MODEL for its declared input shapes and prints the arena the memory
        planner laid out (tensors whose lifetimes do not overlap share bytes), next to the
        sum of the sizes of the tensors placed in it.

        Options:
          --json    print {"model", "arena_bytes", "tensor_bytes", "ratio"} instead
        """

    static func run(_ arguments: inout Arguments) throws {
        let json = arguments.flag("--json")
        let modelPath = try arguments.positionals(exactly: "MODEL")[0]
        let interpreter = try Interpreter(modelPath: modelPath, options: .init(threadCount: 1))
        try interpreter.allocateTensors()
        let stats = interpreter.memoryStatistics
        let ratio = stats.tensorBytes > 0 ? Double(stats.arenaBytes) / Double(stats.tensorBytes) : nil
        if json {
            var object: [String: Any] = ["model": modelPath, "arena_bytes": stats.arenaBytes, "tensor_bytes": stats.tensorBytes]
            object["ratio"] = ratio
            print(try JSONOutput.string(object))
            return
        }
        print("arena_bytes: \(stats.arenaBytes)")
        print("tensor_bytes: \(stats.tensorBytes)")
        if let ratio {
            print("ratio: " + String(ratio))
        }
    }
}

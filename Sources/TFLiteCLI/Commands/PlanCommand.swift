import TFLiteRuntime

/// `tflite plan`: shows how much tensor memory the planner needs for a model.
enum PlanCommand: Command {
    static let name = "plan"
    static let summary = "show the memory plan: arena size against the sum of tensor sizes"
    static let help = """
        Usage: tflite plan MODEL

        Prepares MODEL for its declared input shapes and prints the arena the memory
        planner laid out (tensors whose lifetimes do not overlap share bytes), next to the
        sum of the sizes of the tensors placed in it.
        """

    static func run(_ arguments: inout Arguments) throws {
        let modelPath = try arguments.positionals(exactly: "MODEL")[0]
        let interpreter = try Interpreter(modelPath: modelPath, options: .init(threadCount: 1))
        try interpreter.allocateTensors()
        let stats = interpreter.memoryStatistics
        print("arena_bytes: \(stats.arenaBytes)")
        print("tensor_bytes: \(stats.tensorBytes)")
        if stats.tensorBytes > 0 {
            print("ratio: " + String(Double(stats.arenaBytes) / Double(stats.tensorBytes)))
        }
    }
}

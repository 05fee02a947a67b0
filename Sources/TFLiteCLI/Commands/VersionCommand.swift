import TFLiteRuntime

/// `tflite version` (also `tflite --version`): the package version and the kernels this CPU runs.
enum VersionCommand: Command {
    static let name = "version"
    static let summary = "print the package version and the kernels' instruction set"
    static let help = """
        Usage: tflite version      (or: tflite --version)

        Prints the SwiftTFLite version, then the instruction-set variant of the optimised
        kernels an interpreter runs on this CPU and the variants the CPU could run.
        """

    static func run(_ arguments: inout Arguments) throws {
        guard try arguments.positionals().isEmpty else { throw UsageError("'tflite version' takes no arguments") }
        print("tflite \(packageVersion) (SwiftTFLite)")
        print(KernelsLine.text)
    }
}

/// The `kernels:` line that `version`, `ops` and `bench` print.
enum KernelsLine {
    static var text: String {
        "kernels: \(Interpreter.defaultInstructionSet) (this CPU runs: \(Interpreter.supportedInstructionSets.map(\.description).joined(separator: ", ")))"
    }
}

import TFLiteRuntime

/// `tflite ops`: lists the operators this runtime runs and the input types each handles.
enum OpsCommand: Command {
    static let name = "ops"
    static let summary = "list the supported operators and their input types"
    static let help = """
        Usage: tflite ops [--count]

        Prints one line per supported operator: its TFLite name (builtin operators by their
        BuiltinOperator name, custom operators by custom code) and the input types its
        kernels accept. The last line counts them; the line before it names the instruction-set
        variant of the optimised kernels this CPU runs (see `TFLITE_ISA` in `tflite bench --help`).

        Options:
          --count   print only the counts
        """

    static func run(_ arguments: inout Arguments) throws {
        let countOnly = arguments.flag("--count")
        guard try arguments.positionals().isEmpty else { throw UsageError("'tflite ops' takes no arguments") }
        let entries = SupportedOperators.all
        if !countOnly {
            for e in entries {
                // Names are padded to a 32-column field; a longer one is followed by one space.
                let gap = String(repeating: " ", count: max(1, 32 - e.name.count))
                print(e.name + gap + e.types.map(\.name).joined(separator: ", "))
            }
        }
        let custom = entries.filter(\.isCustom).count
        print("kernels: \(Interpreter.defaultInstructionSet) (this CPU runs: \(Interpreter.supportedInstructionSets.map(\.description).joined(separator: ", ")))")
        print("\(entries.count - custom) builtin operators, \(custom) custom operators")
    }
}

import TFLiteRuntime

/// `tflite ops`: lists the operators this runtime runs and the input types each handles.
enum OpsCommand: Command {
    static let name = "ops"
    static let summary = "list the supported operators and their input types"
    static let help = """
        Usage: tflite ops [--count] [--json]

        Prints one line per supported operator: its TFLite name (builtin operators by their
        BuiltinOperator name, custom operators by custom code) and the input types its
        kernels accept. The last line counts them; the line before it names the instruction-set
        variant of the optimised kernels this CPU runs (see `TFLITE_ISA` in `tflite bench --help`).

        Options:
          --count   print only the counts
          --json    print one JSON object instead: {"operators": [{"name", "types",
                    "custom"}], "builtin", "custom" (the counts), "kernels" (the variant
                    in use), "supported_kernels" (the variants this CPU runs)};
                    with --count, without "operators"
        """

    static func run(_ arguments: inout Arguments) throws {
        let countOnly = arguments.flag("--count")
        let json = arguments.flag("--json")
        guard try arguments.positionals().isEmpty else { throw UsageError("'tflite ops' takes no arguments") }
        let entries = SupportedOperators.all
        let custom = entries.filter(\.isCustom).count
        if json {
            var object: [String: Any] = [
                "builtin": entries.count - custom, "custom": custom,
                "kernels": "\(Interpreter.defaultInstructionSet)",
                "supported_kernels": Interpreter.supportedInstructionSets.map(\.description),
            ]
            if !countOnly {
                object["operators"] = entries.map { ["name": $0.name, "types": $0.types.map(\.name), "custom": $0.isCustom] as [String: Any] }
            }
            print(try JSONOutput.string(object))
            return
        }
        if !countOnly {
            for e in entries {
                // Names are padded to a 32-column field; a longer one is followed by one space.
                let gap = String(repeating: " ", count: max(1, 32 - e.name.count))
                print(e.name + gap + e.types.map(\.name).joined(separator: ", "))
            }
        }
        print(KernelsLine.text)
        print("\(entries.count - custom) builtin operators, \(custom) custom operators")
    }
}

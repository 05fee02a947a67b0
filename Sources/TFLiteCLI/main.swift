import Foundation

/// Every subcommand, in the order `tflite --help` lists them.
let commands: [any Command.Type] = [
    InspectCommand.self,
    RunCommand.self,
    BenchCommand.self,
    PlanCommand.self,
    OpsCommand.self,
    ModelCommand.self,
    DecodeCommand.self,
    LabelCommand.self,
    DetectCommand.self,
    DetectFacesCommand.self,
    SegmentCommand.self,
    VersionCommand.self,
]

let toolHelp = """
    tflite: run TensorFlow Lite models with a pure-Swift runtime.

    Usage: tflite <command> [options]

    Commands:
    \(commands.map { "  " + $0.name.padding(toLength: 14, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

    Run 'tflite <command> --help' for a command's options, 'tflite --version' for the version.
    Exit status: 0 on success, 1 on failure (a message on stderr starting with 'error:'),
    2 for bad usage.
    """

@MainActor func main() -> Int32 {
    var words = Array(CommandLine.arguments.dropFirst())
    guard let first = words.first, first != "--help", first != "-h", first != "help" else {
        print(toolHelp)
        return words.isEmpty ? 2 : 0
    }
    words.removeFirst()
    let name = first == "--version" ? VersionCommand.name : first
    guard let command = commands.first(where: { $0.name == name }) else {
        printError("error: unknown command '\(first)'; run 'tflite --help' for the list")
        return 2
    }
    var arguments = Arguments(words)
    if arguments.wantsHelp() {
        print(command.help)
        return 0
    }
    do {
        try command.run(&arguments)
        return 0
    } catch is AlreadyReported {
        return 1
    } catch let error as UsageError {
        printError("error: \(error)\nRun 'tflite \(command.name) --help' for usage.")
        return 2
    } catch {
        printError("error: \(error)")
        return 1
    }
}

// A closed pipe (`tflite inspect m.tflite | head`) must end the tool with an error, not a signal.
signal(SIGPIPE, SIG_IGN)
exit(main())

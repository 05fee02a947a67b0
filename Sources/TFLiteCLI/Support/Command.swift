import Foundation

/// One `tflite` subcommand. Each lives in its own file under `Commands/` and is listed once
/// in `main.swift`.
protocol Command {
    /// The word after `tflite`, e.g. `inspect`.
    static var name: String { get }
    /// One line for `tflite --help`.
    static var summary: String { get }
    /// Full text for `tflite NAME --help`: usage line, arguments, options, examples.
    static var help: String { get }
    /// Runs with the arguments after the subcommand name. Throw `UsageError` for bad usage
    /// (exit 2), anything else for a failure (exit 1).
    static func run(_ arguments: inout Arguments) throws
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

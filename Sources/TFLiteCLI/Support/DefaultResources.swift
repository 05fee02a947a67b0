import Foundation

/// The files the tool uses when none is named (the bundled classifier, face detector, selfie
/// segmenter and sample photo), found where a clone or an installation keeps them.
///
/// Looked for, in order: relative to the working directory (`swift run` in a clone); then in
/// each of the executable's first six ancestor folders (symlinks resolved), both as
/// `FOLDER/RELATIVE` (a binary under `.build/...` of a clone) and as
/// `FOLDER/share/tflite/RELATIVE` (an install prefix: `PREFIX/bin/tflite` with
/// `PREFIX/share/tflite/Models`, as `Scripts/install.sh` lays it out).
enum DefaultResources {
    static func path(_ relative: String) throws -> String {
        let fm = FileManager.default
        if fm.fileExists(atPath: relative) { return relative }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = executable.deletingLastPathComponent()
        for _ in 0..<6 {
            for candidate in [dir.appendingPathComponent(relative), dir.appendingPathComponent("share/tflite/" + relative)]
            where fm.fileExists(atPath: candidate.path) {
                return candidate.path
            }
            dir = dir.deletingLastPathComponent()
        }
        throw CLIError("the bundled \(relative) is not in the working directory, beside \(executable.path) or in a "
                       + "share/tflite folder of an install prefix above it; name a file instead (see --help), or "
                       + "install the tool with Scripts/install.sh")
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks made before a command spends time on a model, so that an output it cannot write
/// fails at once with a message that names the path.
enum OutputPath {
    /// `path` must be in an existing, writable folder.
    static func checkFile(_ path: String, option: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let dir = folder.isEmpty ? "." : folder
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CLIError("cannot write \(option) \(path): folder '\(dir)' does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: dir) else {
            throw CLIError("cannot write \(option) \(path): folder '\(dir)' is not writable")
        }
    }

    /// Creates `path` (and its parents) when missing; it must end up a writable folder.
    static func makeFolder(_ path: String, option: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CLIError("cannot write into \(option) \(path): it is a file, not a folder") }
        } else {
            try createFolders(path, option: option)
        }
        guard FileManager.default.isWritableFile(atPath: path) else { throw CLIError("cannot write into \(option) \(path): the folder is not writable") }
    }

    /// `mkdir -p`, one level at a time, so that a failure names the folder that could not be
    /// made and the system's reason (Foundation's message only says "the file doesn't exist").
    private static func createFolders(_ path: String, option: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component + "/"
            guard mkdir(prefix, 0o777) != 0, errno != EEXIST else { continue }
            let reason = String(cString: strerror(errno))
            throw CLIError("cannot create \(option) \(path): \(prefix.dropLast()): \(reason)")
        }
    }
}

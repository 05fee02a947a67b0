import Foundation

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
            do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
                throw CLIError("cannot create \(option) \(path): \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
            }
        }
        guard FileManager.default.isWritableFile(atPath: path) else { throw CLIError("cannot write into \(option) \(path): the folder is not writable") }
    }
}

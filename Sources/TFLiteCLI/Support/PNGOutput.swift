import Foundation
import Imaging
import TFLiteRuntime

/// The PNG files the vision commands write (`--annotate`, `--mask`): checked before the model
/// runs, written with a message that names the option and the path.
enum PNGOutput {
    /// Fails with bad usage unless `path` names a `.png` file for one image, and with an error
    /// unless its folder exists and is writable.
    static func check(_ path: String, option: String, isBatch: Bool) throws {
        guard !isBatch else { throw UsageError("\(option) writes one image; give a single image file") }
        guard (path as NSString).pathExtension.lowercased() == "png" else {
            throw UsageError("\(option) writes PNG, the only image format this tool encodes; name the file .png, not '\(path)'")
        }
        try OutputPath.checkFile(path, option: option)
    }

    static func write(_ image: Image, to path: String, option: String) throws {
        let png = try PNGEncoder.encode(image)
        do { try FileIO.write(png, to: path) } catch {
            throw CLIError("cannot write \(option) \(error)")
        }
    }
}

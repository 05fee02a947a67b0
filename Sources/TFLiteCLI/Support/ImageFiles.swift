import Foundation

/// The images a `label` or `detect` command line names: files as given, folders as the image
/// files directly inside them (not in subfolders), sorted by name.
struct ImageFiles {
    /// The extensions a folder's files are picked by (any letter case): those of the PNG,
    /// JPEG and PNM decoders.
    static let extensions = ["png", "jpg", "jpeg", "pnm", "pbm", "pgm", "ppm"]

    let files: [URL]
    /// More than one path, or any folder: results are reported per file, with a summary.
    let isBatch: Bool

    init(_ paths: [String]) throws {
        var files: [URL] = []
        var sawFolder = false
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                // A missing file is kept: the batch reports it like any unreadable image.
                files.append(URL(fileURLWithPath: path))
                continue
            }
            sawFolder = true
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
                throw CLIError("cannot list folder \(path): \(error.localizedDescription)")
            }
            let images = names.filter { !$0.hasPrefix(".") && Self.extensions.contains(($0 as NSString).pathExtension.lowercased()) }
            if images.isEmpty { printError("warning: no image files (\(Self.extensions.joined(separator: ", "))) in \(path)") }
            files += images.sorted().map { URL(fileURLWithPath: (path as NSString).appendingPathComponent($0)) }
        }
        self.files = files
        isBatch = paths.count > 1 || sawFolder
    }

    /// The IMAGE or FOLDER arguments of a command that needs at least one, with its
    /// `--annotate` file (if one is named) checked against them.
    init(required paths: [String], annotate: String?) throws {
        guard !paths.isEmpty else { throw UsageError("expected IMAGE or FOLDER") }
        try self.init(paths)
        if let annotate { try PNGOutput.check(annotate, option: "--annotate", isBatch: isBatch) }
    }
}

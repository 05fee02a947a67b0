import Foundation

extension LocalModel {
    /// The file that describes an AutoML image labelling bundle.
    public static let labelingManifestName = "manifest.json"

    /// Loads an AutoML bundle given either its folder or the file describing it, so that one
    /// path works for labelling and detection bundles alike: a folder holding `manifest.json`
    /// (image labelling) or `tflite_metadata.json` (object detection), or that file itself.
    public convenience init(bundle path: String) throws(TaskError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileNotFound(path) }
        guard isDirectory.boolValue else {
            try self.init(manifestPath: path)
            return
        }
        let folder = URL(fileURLWithPath: path)
        for name in [Self.labelingManifestName, AutoMLDetectionMetadata.fileName] {
            let file = folder.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: file) {
                try self.init(manifestPath: file)
                return
            }
        }
        throw .invalidBundle("\(path): a bundle folder holds \(Self.labelingManifestName) (image labelling) or \(AutoMLDetectionMetadata.fileName) (object detection); found neither")
    }
}

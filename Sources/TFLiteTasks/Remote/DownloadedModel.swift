import Foundation

/// A model held in the cache: the verified file and where it came from.
public struct DownloadedModel: Sendable, Hashable {
    /// The model's name.
    public let name: String
    /// The manifest version this file was downloaded as.
    public let version: String
    /// The file's SHA-256, lowercase hexadecimal.
    public let sha256: String
    /// The file's size in bytes.
    public let size: Int64
    /// The manifest URL the model was downloaded through.
    public let manifestURL: URL
    /// The URL the file itself came from.
    public let modelURL: URL
    /// When the download was committed to the cache.
    public let downloadedAt: Date
    /// The path of the model file.
    public let path: URL
}

/// `record.json` in a model's cache folder: the commit point of a download. The model file
/// is named by its hash, so the record alone says which file is current, and replacing the
/// record (one atomic rename) switches versions.
struct CacheRecord: Codable, Equatable {
    var name: String
    var version: String
    var sha256: String
    var size: Int64
    var file: String
    var manifestURL: String
    var modelURL: String
    var downloadedAt: String

    /// The file name a model with this hash is stored under.
    static func fileName(sha256: String) -> String {
        sha256 + ".tflite"
    }

    /// The record as a `DownloadedModel`, or nil when it does not describe a file in `folder`
    /// named as the cache names files (a damaged or edited record is ignored, never followed).
    func downloadedModel(in folder: URL) -> DownloadedModel? {
        guard file == CacheRecord.fileName(sha256: sha256), sha256.utf8.count == 64,
              sha256.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                  || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }),
              let manifest = URL(string: manifestURL), let model = URL(string: modelURL),
              let date = ISO8601DateFormatter().date(from: downloadedAt)
        else { return nil }
        return DownloadedModel(
            name: name, version: version, sha256: sha256, size: size,
            manifestURL: manifest, modelURL: model, downloadedAt: date,
            path: folder.appendingPathComponent(file))
    }
}

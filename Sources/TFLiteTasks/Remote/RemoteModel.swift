import Foundation

/// A model hosted on an HTTP(S) server, described there by a small JSON manifest
/// (see `ModelManifest`), and downloaded into a local cache by a `ModelManager`.
///
/// The name is the model's identity in the cache: it must match the manifest's `name`
/// and is used as a folder name, so it is limited to letters, digits, `.`, `-` and `_`.
public struct RemoteModel: Sendable, Hashable, CustomStringConvertible {
    /// The model's name, as in the manifest.
    public let name: String
    /// The `http` or `https` URL of the model's JSON manifest.
    public let source: URL

    /// Creates a remote model description.
    /// - Parameters:
    ///   - name: 1 to 128 characters from `A-Z a-z 0-9 . - _`, not starting with `.`.
    ///   - source: the absolute `http`/`https` URL of the model's manifest.
    /// - Throws: `ModelDownloadError.invalidModelName` or `.unsupportedURL`.
    public init(name: String, source: URL) throws(ModelDownloadError) {
        try RemoteModel.checkName(name)
        try RemoteModel.checkHTTP(source, role: "manifest")
        self.name = name
        self.source = source
    }

    /// `name <source>`.
    public var description: String { "\(name) <\(source.absoluteString)>" }

    /// True when `name` can name a remote model: 1 to 128 characters from
    /// `A-Z a-z 0-9 . - _`, not starting with `.` (so it is safe as a folder name).
    public static func isValidName(_ name: String) -> Bool {
        (try? checkName(name)) != nil
    }

    /// Throws unless `name` is safe to use as a single path component.
    static func checkName(_ name: String) throws(ModelDownloadError) {
        let allowed = name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
                return true
            default:
                return false
            }
        }
        guard (1...128).contains(name.utf8.count), allowed, !name.hasPrefix(".") else {
            throw ModelDownloadError.invalidModelName(name)
        }
    }

    /// Throws unless `url` is an absolute `http` or `https` URL with a host: a manifest or a
    /// redirect must never lead the downloader to a local file or another protocol.
    static func checkHTTP(_ url: URL, role: String) throws(ModelDownloadError) {
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw ModelDownloadError.unsupportedURL(url, reason: "the \(role) URL must use http or https")
        }
        guard let host = url.host, !host.isEmpty else {
            throw ModelDownloadError.unsupportedURL(url, reason: "the \(role) URL has no host")
        }
    }
}

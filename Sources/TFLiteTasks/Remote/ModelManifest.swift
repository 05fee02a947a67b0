import Foundation

/// The JSON document a server publishes for each remote model:
///
/// ```json
/// {"name": "flowers", "version": "3", "url": "flowers-3.tflite",
///  "sha256": "<64 hex digits>", "size": 3164}
/// ```
///
/// `url` is absolute or relative to the manifest's own URL; other keys are ignored. A client
/// knows a newer model exists when `version` differs from the one it holds, and checks what
/// it downloaded against `size` and `sha256`.
public struct ModelManifest: Sendable, Hashable {
    /// The model's name; must equal `RemoteModel.name`.
    public let name: String
    /// An opaque version string; any change means "a different model".
    public let version: String
    /// The absolute URL of the `.tflite` file.
    public let modelURL: URL
    /// The expected SHA-256 of the file, 64 lowercase hexadecimal digits.
    public let sha256: String
    /// The expected size of the file in bytes.
    public let size: Int64

    /// The largest manifest accepted, so a hostile server cannot make the client buffer a
    /// huge document.
    static let maximumManifestBytes = 64 * 1024

    /// Parses and checks a manifest.
    /// - Parameters:
    ///   - data: the manifest bytes.
    ///   - manifestURL: where the manifest came from; relative model URLs resolve against it.
    /// - Throws: `ModelDownloadError.invalidManifest` naming the faulty field, or
    ///   `.unsupportedURL` when the model URL is not `http`/`https`.
    public init(decoding data: Data, from manifestURL: URL) throws(ModelDownloadError) {
        func invalid(_ reason: String) -> ModelDownloadError {
            .invalidManifest(url: manifestURL, reason: reason)
        }
        guard let parsed = try? JSONSerialization.jsonObject(with: data) else { throw invalid("not valid JSON") }
        guard let object = parsed as? [String: Any] else { throw invalid("expected a JSON object") }
        func string(_ key: String) throws(ModelDownloadError) -> String {
            guard let value = object[key] else { throw invalid("missing key '\(key)'") }
            guard let text = value as? String else { throw invalid("'\(key)' must be a string") }
            return text
        }
        let name = try string("name")
        let version = try string("version")
        let url = try string("url")
        let sha256 = try string("sha256")
        guard let sizeValue = object["size"] else { throw invalid("missing key 'size'") }
        // An integral JSON number spells as digits only; 1.5 or 1e3 do not parse as Int64.
        guard let number = sizeValue as? NSNumber, let size = Int64(number.stringValue) else {
            throw invalid("'size' must be an integer byte count")
        }
        guard !version.isEmpty, version.utf8.count <= 256 else {
            throw invalid("'version' must be 1 to 256 bytes long")
        }
        let hexDigits = sha256.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
        guard sha256.utf8.count == 64, hexDigits else {
            throw invalid("'sha256' must be 64 hexadecimal digits, got '\(sha256.prefix(80))'")
        }
        guard size > 0 else {
            throw invalid("'size' must be a positive byte count, got \(size)")
        }
        guard let resolved = URL(string: url, relativeTo: manifestURL)?.absoluteURL else {
            throw invalid("'url' is not a URL: '\(url.prefix(200))'")
        }
        try RemoteModel.checkHTTP(resolved, role: "model")
        self.name = name
        self.version = version
        self.modelURL = resolved
        self.sha256 = sha256.lowercased()
        self.size = size
    }
}

extension ModelManifest {
    /// The manifest to publish beside a model file: `modelBytes`' size and SHA-256 under
    /// `name` and `version`, the file at `url` (relative to the manifest, or absolute).
    /// Servers hosting a model, and tests standing in for them, write this document.
    public static func document(name: String, version: String, url: String, modelBytes: [UInt8]) -> Data {
        let object: [String: Any] = [
            "name": name, "version": version, "url": url,
            "sha256": SHA256.hex(of: modelBytes), "size": modelBytes.count,
        ]
        // Keys sorted so the same model always gives the same bytes.
        // Strings and an integer always serialise, so the fallback is never taken.
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }
}

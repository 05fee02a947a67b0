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

    private struct Wire: Decodable {
        var name: String
        var version: String
        var url: String
        var sha256: String
        var size: Int64
    }

    /// Parses and checks a manifest.
    /// - Parameters:
    ///   - data: the manifest bytes.
    ///   - manifestURL: where the manifest came from; relative model URLs resolve against it.
    /// - Throws: `ModelDownloadError.invalidManifest` naming the faulty field, or
    ///   `.unsupportedURL` when the model URL is not `http`/`https`.
    public init(decoding data: Data, from manifestURL: URL) throws(ModelDownloadError) {
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: data)
        } catch let error as DecodingError {
            throw ModelDownloadError.invalidManifest(url: manifestURL, reason: ModelManifest.explain(error))
        } catch {
            throw ModelDownloadError.invalidManifest(url: manifestURL, reason: "not JSON")
        }
        func invalid(_ reason: String) -> ModelDownloadError {
            .invalidManifest(url: manifestURL, reason: reason)
        }
        guard !wire.version.isEmpty, wire.version.utf8.count <= 256 else {
            throw invalid("'version' must be 1 to 256 bytes long")
        }
        let hexDigits = wire.sha256.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
        }
        guard wire.sha256.utf8.count == 64, hexDigits else {
            throw invalid("'sha256' must be 64 hexadecimal digits, got '\(wire.sha256.prefix(80))'")
        }
        guard wire.size > 0 else {
            throw invalid("'size' must be a positive byte count, got \(wire.size)")
        }
        guard let resolved = URL(string: wire.url, relativeTo: manifestURL)?.absoluteURL else {
            throw invalid("'url' is not a URL: '\(wire.url.prefix(200))'")
        }
        try RemoteModel.checkHTTP(resolved, role: "model")
        name = wire.name
        version = wire.version
        modelURL = resolved
        sha256 = wire.sha256.lowercased()
        size = wire.size
    }

    private static func explain(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _):
            return "missing key '\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            return key.isEmpty ? "expected a JSON object" : "'\(key)' has the wrong type"
        case .dataCorrupted(let context):
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            return key.isEmpty ? "not valid JSON" : "'\(key)' is out of range"
        @unknown default:
            return "not a manifest"
        }
    }
}

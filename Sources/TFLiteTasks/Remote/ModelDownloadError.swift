import Foundation

/// Why a remote model could not be downloaded, verified or found in the cache.
///
/// Every failure leaves the previously downloaded model in place. `isTransient` tells which
/// failures are worth retrying (server errors and broken connections) and which are not
/// (missing files, verification failures).
public enum ModelDownloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The model name cannot be used as a cache folder name.
    case invalidModelName(String)
    /// A URL is not an `http`/`https` URL with a host.
    case unsupportedURL(URL, reason: String)
    /// The server answered with an HTTP status other than success.
    case httpStatus(Int, url: URL)
    /// The connection failed, timed out or was closed early.
    case transport(url: URL, message: String)
    /// The whole download (manifest, every attempt and the waits between them) took longer
    /// than `ModelDownloadConditions.downloadTimeout`; `url` is what it was waiting for.
    case deadlineExceeded(url: URL, seconds: TimeInterval)
    /// A chain of HTTP redirects starting at `url` went on past `limit` (a loop, most likely).
    case tooManyRedirects(url: URL, limit: Int)
    /// The body came with a content or transfer coding the downloader cannot decode (it asks
    /// for `identity` and decodes `gzip`).
    case unsupportedEncoding(url: URL, encoding: String)
    /// The body's `encoding` (gzip) is damaged or decodes to more bytes than expected.
    case corruptEncoding(url: URL, encoding: String, reason: String)
    /// The manifest is not valid JSON of the documented shape.
    case invalidManifest(url: URL, reason: String)
    /// The manifest describes a different model than the one asked for.
    case manifestNameMismatch(expected: String, found: String)
    /// The manifest announces a model larger than `ModelDownloadConditions.maximumModelSize`.
    case modelTooLarge(size: Int64, limit: Int64)
    /// The model file received has a different size than the manifest says.
    case sizeMismatch(url: URL, expected: Int64, received: Int64)
    /// The model file received has a different SHA-256 than the manifest says.
    case checksumMismatch(url: URL, expected: String, actual: String)
    /// The file received is not a usable `.tflite` model.
    case invalidModel(reason: String)
    /// Reading or writing the cache directory failed.
    case cache(path: String, reason: String)
    /// The cache holds no model of that name.
    case notDownloaded(String)
    /// The download was cancelled.
    case cancelled

    /// True for failures that may succeed when retried: 5xx, 408 and 429 answers and
    /// connection errors (idle timeouts included). Missing files, bad manifests, verification
    /// failures, an exceeded download deadline, redirect loops and undecodable encodings are final.
    public var isTransient: Bool {
        switch self {
        case .httpStatus(let code, _):
            return code >= 500 || code == 408 || code == 429
        case .transport:
            return true
        default:
            return false
        }
    }

    /// A one-line explanation naming the URL, file or value at fault.
    public var description: String {
        switch self {
        case .invalidModelName(let name):
            return "invalid model name '\(name)': use 1 to 128 characters from A-Z a-z 0-9 . - _, not starting with '.'"
        case .unsupportedURL(let url, let reason):
            return "unsupported URL \(url.absoluteString): \(reason)"
        case .httpStatus(let code, let url):
            return "HTTP status \(code) from \(url.absoluteString)"
        case .transport(let url, let message):
            return "connection to \(url.absoluteString) failed: \(message)"
        case .deadlineExceeded(let url, let seconds):
            return "the download did not finish within its deadline of \(String(format: "%g", seconds)) s (waiting for \(url.absoluteString))"
        case .tooManyRedirects(let url, let limit):
            return "\(url.absoluteString) redirected more than \(limit) times (a redirect loop?)"
        case .unsupportedEncoding(let url, let encoding):
            return "\(url.absoluteString) was sent with encoding '\(encoding)', which cannot be decoded (only identity and gzip are supported)"
        case .corruptEncoding(let url, let encoding, let reason):
            return "the \(encoding)-encoded body of \(url.absoluteString) cannot be decoded: \(reason)"
        case .invalidManifest(let url, let reason):
            return "invalid model manifest at \(url.absoluteString): \(reason)"
        case .manifestNameMismatch(let expected, let found):
            return "the manifest describes model '\(found)', expected '\(expected)'"
        case .modelTooLarge(let size, let limit):
            return "the manifest announces \(size) bytes, more than the limit of \(limit) bytes"
        case .sizeMismatch(let url, let expected, let received):
            return "\(url.absoluteString) has \(received) bytes, the manifest says \(expected)"
        case .checksumMismatch(let url, let expected, let actual):
            return "\(url.absoluteString) has SHA-256 \(actual), the manifest says \(expected)"
        case .invalidModel(let reason):
            return "the downloaded file is not a valid model: \(reason)"
        case .cache(let path, let reason):
            return "model cache error at \(path): \(reason)"
        case .notDownloaded(let name):
            return "no downloaded model named '\(name)' in the cache"
        case .cancelled:
            return "the download was cancelled"
        }
    }
}

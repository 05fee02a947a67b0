import Foundation

/// The redirects one request has followed: each target must be `http`/`https` (a redirect can
/// never lead to a local file or another protocol), and a chain longer than `limit` fails
/// for good instead of being retried (a redirect loop does not heal on its own).
struct HTTPRedirects: Sendable {
    /// The most redirects followed for one request.
    static let limit = 10
    /// The URL the chain started from, named in the error.
    let origin: URL
    private(set) var count = 0

    init(from origin: URL) {
        self.origin = origin
    }

    /// Counts a redirect to `target`.
    /// - Throws: `ModelDownloadError.unsupportedURL` for a target that is not `http`/`https`,
    ///   `.tooManyRedirects` past the limit.
    mutating func follow(to target: URL) throws(ModelDownloadError) {
        try RemoteModel.checkHTTP(target, role: "redirect")
        count += 1
        guard count <= HTTPRedirects.limit else {
            throw .tooManyRedirects(url: origin, limit: HTTPRedirects.limit)
        }
    }
}

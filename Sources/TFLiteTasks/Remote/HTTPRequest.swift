import Foundation

/// Which HTTP client carries a download's requests.
enum HTTPTransport: Sendable, Hashable {
    /// On Linux, `http` URLs through `SocketHTTPClient` (URLSession's event loop spins while
    /// it waits there); everything else through URLSession.
    case automatic
    /// URLSession for every request (tests use it to cover that path on Linux too).
    case urlSession
}

/// One HTTP GET, its response head and body streamed to callbacks, through the client that
/// suits the URL and the platform (`HTTPTransport`).
enum HTTPRequest {
    /// Called once with the final response head (redirects are followed before it); throw
    /// a `ModelDownloadError` to refuse the body.
    typealias ResponseHandler = (HTTPResponseHead) throws(ModelDownloadError) -> Void
    /// Called for each piece of the decoded body, in order; throw a `ModelDownloadError` to stop.
    typealias DataHandler = (Data) throws(ModelDownloadError) -> Void

    /// Performs a GET of `url` with the extra `headers`, returning when the body is complete.
    /// - Parameters:
    ///   - deadline: the whole download's deadline; the attempt also obeys
    ///     `conditions.requestTimeout` (silence) and `conditions.resourceTimeout` (length).
    ///   - decodedLimit: the most body bytes the caller accepts once decoded.
    /// - Throws: the first error a handler threw, `.transport` for connection failures and
    ///   timeouts, `.deadlineExceeded`, `.tooManyRedirects`, `.unsupportedEncoding`,
    ///   `.corruptEncoding`, `.cancelled` when the calling task is cancelled.
    static func get(
        _ url: URL,
        headers: [String: String] = [:],
        conditions: ModelDownloadConditions,
        deadline: DownloadDeadline,
        decodedLimit: Int,
        onResponse: @escaping ResponseHandler,
        onData: @escaping DataHandler
    ) async throws(ModelDownloadError) {
        guard !Task.isCancelled else { throw .cancelled }
        guard !deadline.hasPassed else { throw deadline.exceeded(waitingFor: url) }
        let limits = deadline.attempt(conditions)
        #if canImport(Glibc)
        if conditions.transport == .automatic, url.scheme?.lowercased() == "http" {
            let client = SocketHTTPClient(headers: headers, limits: limits, decodedLimit: decodedLimit,
                                          wake: try WakeSignal(for: url), onResponse: onResponse, onData: onData)
            switch try await onOwnThread(client, url) {
            case .finished:
                return
            case .handOff(let target, let redirects):
                // Redirected to https: URLSession goes on, counting the redirects so far.
                return try await URLSessionRequest.get(target, headers: headers, conditions: conditions, limits: limits,
                                                       redirects: redirects, onResponse: onResponse, onData: onData)
            }
        }
        #endif
        try await URLSessionRequest.get(url, headers: headers, conditions: conditions, limits: limits,
                                        redirects: HTTPRedirects(from: url), onResponse: onResponse, onData: onData)
    }

    #if canImport(Glibc)
    /// Runs `client` on a thread of its own (it blocks in poll(2), which must not hold a
    /// thread of the concurrency pool for minutes), waking it when the calling task is cancelled.
    private static func onOwnThread(_ client: SocketHTTPClient, _ url: URL) async throws(ModelDownloadError) -> SocketHTTPClient.Outcome {
        let wake = client.wake
        defer { wake.close() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Result<SocketHTTPClient.Outcome, ModelDownloadError>, Never>) in
                let work = UncheckedSendable(client)
                Thread.detachNewThread {
                    done.resume(returning: Result { () throws(ModelDownloadError) in try work.value.run(url, redirects: HTTPRedirects(from: url)) })
                }
            }
        } onCancel: {
            wake.signal()
        }
        return try result.get()
    }
    #endif
}

#if canImport(Glibc)
/// Carries the client, whose handlers are confined to the thread that runs it, to that thread.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
#endif

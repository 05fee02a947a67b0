import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP GET through URLSession, its response and body streamed to callbacks: the client
/// for `https` and for every URL on Apple platforms (see `HTTPRequest`).
///
/// A delegate-driven data task is used rather than a download task: it works the same on
/// Linux (swift-corelibs-foundation, where resume data and background sessions are not
/// available) and on Apple platforms, and it lets the caller hash and bound the body as it
/// arrives and resume a broken transfer with a `Range` request of its own.
///
/// swift-corelibs-foundation does not implement `timeoutIntervalForResource`, so the
/// attempt's end and the download's deadline are enforced here with a timer that cancels
/// the task. Its redirect limit (20, then a transient error) is replaced by the package's
/// own, which fails for good.
///
/// Whatever ends the attempt early (the timer, the calling task's cancellation, a handler's
/// error) resumes the caller itself and only then cancels the URLSession task, so the wait
/// never depends on URLSession reporting the cancelled task's completion. Cancellation of the
/// calling task reaches URLSession through the delegate queue, never from the cancellation
/// handler itself: that handler runs holding the task's status lock, and
/// `URLSessionTask.cancel()` waits for URLSession's work queue, whose thread may at that very
/// moment be resuming a continuation of the same task, which needs that lock (a lock-order
/// inversion reported against swift-corelibs-foundation's own `URLSession.data()`).
final class URLSessionRequest: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let url: URL
    private let limits: AttemptLimits
    private let onResponse: HTTPRequest.ResponseHandler
    private let onData: HTTPRequest.DataHandler
    // The fields below are touched only on the session's serial delegate queue.
    private var redirects: HTTPRedirects
    private var failure: ModelDownloadError?
    private var continuation: CheckedContinuation<Void, any Error>?
    /// The timer that ends the attempt at its limit (`AttemptLimits.remaining`).
    private var expiry: DispatchWorkItem?

    private init(url: URL, limits: AttemptLimits, redirects: HTTPRedirects,
                 onResponse: @escaping HTTPRequest.ResponseHandler, onData: @escaping HTTPRequest.DataHandler) {
        self.url = url
        self.limits = limits
        self.redirects = redirects
        self.onResponse = onResponse
        self.onData = onData
    }

    /// Performs a GET of `url`, returning when the body is complete.
    /// - Throws: the first error a handler threw, `.transport` for connection failures and
    ///   timeouts, `.deadlineExceeded`, `.tooManyRedirects`, `.unsupportedEncoding`, or
    ///   `.cancelled` when the calling task is cancelled.
    static func get(
        _ url: URL, headers: [String: String], conditions: ModelDownloadConditions, limits: AttemptLimits,
        redirects: HTTPRedirects,
        onResponse: @escaping HTTPRequest.ResponseHandler, onData: @escaping HTTPRequest.DataHandler
    ) async throws(ModelDownloadError) {
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        for (field, value) in headers {
            request.setValue(value, forHTTPHeaderField: field)
        }
        let delegate = URLSessionRequest(url: url, limits: limits, redirects: redirects, onResponse: onResponse, onData: onData)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration(for: conditions, limits: limits), delegate: delegate, delegateQueue: queue)
        // The session retains its delegate until invalidated.
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        defer { queue.addOperation { delegate.expiry?.cancel() } }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    queue.addOperation { delegate.start(task, continuation, on: queue) }
                }
            } onCancel: {
                queue.addOperation { delegate.end(task, with: .cancelled) }
            }
        } catch let error as ModelDownloadError {
            throw error
        } catch {
            throw .transport(url: url, message: "\(error)")
        }
    }

    private static func configuration(for conditions: ModelDownloadConditions, limits: AttemptLimits) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        // swift-corelibs-foundation truncates this to whole seconds (0.4 would time out at
        // once), so it is rounded up; the socket client keeps the exact value.
        configuration.timeoutIntervalForRequest = limits.idle.rounded(.up)
        // Past the expiry timer, so that where URLSession enforces it (Apple platforms) the
        // timer's clearer error wins.
        configuration.timeoutIntervalForResource = limits.remaining + 1
        configuration.allowsCellularAccess = conditions.allowsCellularAccess
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        #if canImport(Darwin)
        configuration.shouldUseExtendedBackgroundIdleMode = conditions.allowsBackgroundDownloading
        #endif
        return configuration
    }

    /// The attempt ran out of time: fail with the limit that ended it.
    private func expire(_ task: URLSessionTask) {
        end(task, with: limits.expired(waitingFor: task.currentRequest?.url ?? url))
    }

    /// Starts `task` and its expiry timer, unless the attempt was cancelled before it started.
    /// Called on the delegate `queue`, which orders it with `end`.
    private func start(_ task: URLSessionTask, _ continuation: CheckedContinuation<Void, any Error>,
                       on queue: OperationQueue) {
        if let failure { return continuation.resume(throwing: failure) }
        self.continuation = continuation
        task.resume()
        let expiry = DispatchWorkItem { [weak self] in
            guard let self else { return }
            queue.addOperation { self.expire(task) }
        }
        self.expiry = expiry
        DispatchQueue.global().asyncAfter(deadline: .now() + limits.remaining, execute: expiry)
    }

    /// Fails the attempt with `error` (unless it has already failed), resumes the caller at
    /// once, then cancels `task`; what URLSession reports of it afterwards is ignored. Called
    /// on the delegate queue.
    private func end(_ task: URLSessionTask, with error: ModelDownloadError) {
        guard failure == nil else { return }
        failure = error
        continuation?.resume(throwing: error)
        continuation = nil
        task.cancel()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard failure == nil else { return completionHandler(.cancel) }
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            return end(dataTask, with: .transport(url: url, message: "the response is not HTTP"))
        }
        let head = HTTPResponseHead(http, requested: url)
        do throws(ModelDownloadError) {
            try onResponse(head)
            // URLSession decodes gzip itself (libcurl on Linux, CFNetwork on Apple platforms);
            // other codings are refused here, as the socket client refuses them.
            if case .unsupported(let coding) = head.contentCoding {
                throw .unsupportedEncoding(url: head.url, encoding: coding)
            }
            completionHandler(.allow)
        } catch {
            completionHandler(.cancel)
            end(dataTask, with: error)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil else { return }
        do {
            try onData(data)
        } catch {
            end(dataTask, with: error)
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        guard let target = request.url else { return completionHandler(nil) }
        do throws(ModelDownloadError) {
            try redirects.follow(to: target)
            completionHandler(request)
        } catch {
            completionHandler(nil)
            end(task, with: error)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // Nil when the attempt has already ended (`end`).
        let continuation = self.continuation
        self.continuation = nil
        if let error {
            continuation?.resume(throwing: transportError(error))
        } else {
            continuation?.resume()
        }
    }

    private func transportError(_ error: any Error) -> ModelDownloadError {
        let nsError = error as NSError
        if let urlError = error as? URLError {
            switch urlError.code {
            case .cancelled:
                return .cancelled
            case .timedOut:
                return .transport(url: url, message: "timed out: no data for \(String(format: "%g", limits.idle.rounded(.up))) s")
            default:
                break
            }
        }
        let detail = (nsError.userInfo[NSLocalizedDescriptionKey] as? String)
            ?? ((nsError.userInfo[NSUnderlyingErrorKey] as? NSError)?.userInfo[NSLocalizedDescriptionKey] as? String)
            ?? "error \(nsError.code) in \(nsError.domain)"
        return .transport(url: url, message: detail)
    }
}

extension HTTPResponseHead {
    /// The head of a URLSession response to a request for `requested`.
    init(_ response: HTTPURLResponse, requested: URL) {
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            let key = name.lowercased()
            fields[key] = fields[key].map { $0 + ", " + value } ?? value
        }
        self.init(url: response.url ?? requested, statusCode: response.statusCode, headers: fields)
    }
}

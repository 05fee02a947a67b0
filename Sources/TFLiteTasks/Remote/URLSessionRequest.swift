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
final class URLSessionRequest: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let url: URL
    private let limits: AttemptLimits
    private let onResponse: HTTPRequest.ResponseHandler
    private let onData: HTTPRequest.DataHandler
    // The fields below are touched only on the session's serial delegate queue, except
    // `continuation`, which is set before the task starts.
    private var redirects: HTTPRedirects
    private var failure: ModelDownloadError?
    private var continuation: CheckedContinuation<Void, any Error>?

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
        let expiry = DispatchWorkItem { queue.addOperation { delegate.expire(task) } }
        defer { expiry.cancel() }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.continuation = continuation
                    task.resume()
                    // Scheduled after `continuation` is set, so the expiry always finds it.
                    DispatchQueue.global().asyncAfter(deadline: .now() + limits.remaining, execute: expiry)
                }
            } onCancel: {
                task.cancel()
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
        guard continuation != nil, failure == nil else { return }
        failure = limits.expired(waitingFor: task.currentRequest?.url ?? url)
        task.cancel()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard failure == nil else { return completionHandler(.cancel) }
        guard let http = response as? HTTPURLResponse else {
            failure = .transport(url: url, message: "the response is not HTTP")
            return completionHandler(.cancel)
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
            failure = error
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil else { return }
        do {
            try onData(data)
        } catch {
            failure = error
            dataTask.cancel()
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
            failure = error
            completionHandler(nil)
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let continuation = self.continuation
        self.continuation = nil
        if let failure {
            continuation?.resume(throwing: failure)
        } else if let error {
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

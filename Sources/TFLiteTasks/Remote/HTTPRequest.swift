import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP GET through URLSession, its response and body streamed to callbacks.
///
/// A delegate-driven data task is used rather than a download task: it works the same on
/// Linux (swift-corelibs-foundation, where resume data and background sessions are not
/// available) and on Apple platforms, and it lets the caller hash and bound the body as it
/// arrives and resume a broken transfer with a `Range` request of its own.
final class HTTPRequest: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Called once with the response head; throw a `ModelDownloadError` to refuse the body.
    typealias ResponseHandler = (HTTPURLResponse) throws(ModelDownloadError) -> Void
    /// Called for each piece of the body, in order; throw a `ModelDownloadError` to stop.
    typealias DataHandler = (Data) throws(ModelDownloadError) -> Void

    private let url: URL
    private let idleTimeout: TimeInterval
    private let onResponse: ResponseHandler
    private let onData: DataHandler
    // The fields below are touched only on the session's serial delegate queue, except
    // `continuation`, which is set before the task starts.
    private var failure: ModelDownloadError?
    private var continuation: CheckedContinuation<Void, any Error>?

    private init(url: URL, idleTimeout: TimeInterval, onResponse: @escaping ResponseHandler, onData: @escaping DataHandler) {
        self.url = url
        self.idleTimeout = idleTimeout
        self.onResponse = onResponse
        self.onData = onData
    }

    /// Performs a GET of `url` with the extra `headers`, returning when the body is complete.
    /// - Throws: the first error a handler threw, `.transport` for connection failures and
    ///   timeouts, `.cancelled` when the calling task is cancelled.
    static func get(
        _ url: URL,
        headers: [String: String] = [:],
        conditions: ModelDownloadConditions,
        onResponse: @escaping ResponseHandler,
        onData: @escaping DataHandler
    ) async throws(ModelDownloadError) {
        guard !Task.isCancelled else { throw .cancelled }
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        for (field, value) in headers {
            request.setValue(value, forHTTPHeaderField: field)
        }
        let delegate = HTTPRequest(url: url, idleTimeout: conditions.requestTimeout, onResponse: onResponse, onData: onData)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration(for: conditions), delegate: delegate, delegateQueue: queue)
        // The session retains its delegate until invalidated.
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    delegate.continuation = continuation
                    task.resume()
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

    private static func configuration(for conditions: ModelDownloadConditions) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = conditions.requestTimeout
        configuration.timeoutIntervalForResource = conditions.resourceTimeout
        configuration.allowsCellularAccess = conditions.allowsCellularAccess
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        #if canImport(Darwin)
        configuration.shouldUseExtendedBackgroundIdleMode = conditions.allowsBackgroundDownloading
        #endif
        return configuration
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
        do {
            try onResponse(http)
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
        do {
            try RemoteModel.checkHTTP(target, role: "redirect")
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
                return .transport(url: url, message: "timed out (no data for \(idleTimeout) s or the attempt took too long)")
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

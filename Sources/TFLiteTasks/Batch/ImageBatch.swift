import Foundation

/// Runs one image task over many files on worker threads and hands the results back, in the
/// order of the files, as an `AsyncStream`.
///
/// Each worker owns one task object (labeller or detector), hence one interpreter; they all
/// share the caller's loaded model, which is immutable. Workers are plain threads, not tasks:
/// an inference blocks its thread for milliseconds, which the cooperative pool must not see.
enum ImageBatch {
    /// How many workers a batch of `fileCount` images gets: `requested`, else one per core,
    /// never more than there are images.
    static func workerCount(requested: Int?, fileCount: Int) throws(TaskError) -> Int {
        if let requested, requested < 1 { throw .invalidFormat("a batch needs at least one worker, got \(requested)") }
        return max(1, min(requested ?? ProcessInfo.processInfo.activeProcessorCount, fileCount))
    }

    /// Interpreter threads per worker when the options leave them unset: the cores shared out
    /// among the workers, so that together they do not oversubscribe the machine.
    static func threadsPerWorker(_ workers: Int) -> Int {
        max(1, ProcessInfo.processInfo.activeProcessorCount / workers)
    }

    /// Starts one thread per element of `workers`; each takes the next file, decodes it and
    /// runs `process` on it until none is left or the stream is dropped or cancelled.
    static func results<Worker: Sendable, Value: Sendable>(
        files: [URL], workers: [Worker],
        process: @escaping @Sendable (Worker, VisionImage) throws(TaskError) -> Value
    ) -> AsyncStream<ImageBatchResult<Value>> {
        let (stream, continuation) = AsyncStream.makeStream(of: ImageBatchResult<Value>.self)
        let queue = BatchQueue(count: files.count, workers: workers.count, continuation: continuation)
        continuation.onTermination = { _ in queue.cancel() }
        for worker in workers {
            let thread = Thread {
                while let index = queue.next() {
                    queue.deliver(result(for: files[index], at: index, worker: worker, process: process))
                }
                queue.workerFinished()
            }
            // Decoders and kernels may want more than a secondary thread's default stack.
            thread.stackSize = 8 << 20
            thread.start()
        }
        return stream
    }

    private static func result<Worker, Value>(
        for file: URL, at index: Int, worker: Worker,
        process: (Worker, VisionImage) throws(TaskError) -> Value
    ) -> ImageBatchResult<Value> {
        let image: VisionImage
        do { image = try VisionImage(path: file.path) } catch {
            return ImageBatchResult(file: file, index: index, imageSize: nil, result: .failure(error))
        }
        return ImageBatchResult(file: file, index: index, imageSize: image.displayedSize,
                                result: Result { () throws(TaskError) in try process(worker, image) })
    }
}

/// The batch's shared state: the next file to hand out, results that finished ahead of an
/// earlier file, and the stream they go to.
private final class BatchQueue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private let continuation: AsyncStream<ImageBatchResult<Value>>.Continuation
    private var nextIndex = 0
    private var nextToYield = 0
    private var waiting: [Int: ImageBatchResult<Value>] = [:]
    private var runningWorkers: Int
    private var cancelled = false

    init(count: Int, workers: Int, continuation: AsyncStream<ImageBatchResult<Value>>.Continuation) {
        self.count = count
        self.continuation = continuation
        runningWorkers = workers
        if count == 0 || workers == 0 { continuation.finish() }
    }

    /// The index of the next file to process, nil when all are handed out or the batch is cancelled.
    func next() -> Int? {
        lock.withLock {
            guard !cancelled, nextIndex < count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }

    /// Yields `result` and every waiting result after it, in file order. Yielding under the
    /// lock is what keeps the order; finishing is done outside it, because `finish()` runs
    /// the termination handler, which takes the lock.
    func deliver(_ result: ImageBatchResult<Value>) {
        let allDelivered = lock.withLock {
            waiting[result.index] = result
            while let ready = waiting.removeValue(forKey: nextToYield) {
                continuation.yield(ready)
                nextToYield += 1
            }
            return nextToYield == count
        }
        if allDelivered { continuation.finish() }
    }

    /// Ends the stream once the last worker stops (after a cancellation, some files are never
    /// processed, so the count alone would not end it).
    func workerFinished() {
        let lastWorker = lock.withLock {
            runningWorkers -= 1
            return runningWorkers == 0
        }
        if lastWorker { continuation.finish() }
    }

    func cancel() {
        lock.withLock { cancelled = true }
    }
}

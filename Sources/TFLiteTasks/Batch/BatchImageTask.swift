import Foundation

/// An image task a batch can run. Each worker is a new task made from the caller's options, so
/// that each owns an interpreter over the one loaded model.
protocol BatchImageTask: Sendable {
    associatedtype Options: BatchImageTaskOptions
    associatedtype Value: Sendable

    var options: Options { get }
    init(options: Options) throws(TaskError)
    func results(in image: VisionImage) throws(TaskError) -> Value
}

extension BatchImageTask {
    /// What each task's `results(forImagesAt:workers:)` does: `workers` tasks (default: one per
    /// core, never more than the files) over `files`, one result per file in their order.
    func batchResults(forImagesAt files: [URL], workers: Int?) throws(TaskError)
        -> AsyncStream<ImageBatchResult<Value>>
    {
        let count = try ImageBatch.workerCount(requested: workers, fileCount: files.count)
        var options = self.options
        options.threadCount = options.threadCount ?? ImageBatch.threadsPerWorker(count)
        var tasks: [Self] = []
        for _ in 0..<count { tasks.append(try Self(options: options)) }
        return ImageBatch.results(files: files, workers: tasks) { task, image throws(TaskError) in
            try task.results(in: image)
        }
    }
}

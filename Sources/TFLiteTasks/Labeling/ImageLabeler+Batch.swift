import Foundation

extension ImageLabeler {
    /// Labels every image in `files` and yields one result per file, in the order given.
    ///
    /// The work runs on `workers` threads (default: one per core, never more than the files),
    /// each with its own interpreter over this labeller's loaded model and options; with
    /// `threadCount` unset, each interpreter gets its share of the cores. A file that cannot be
    /// read or decoded gives a result carrying the error and the batch goes on. Ending the
    /// iteration (or cancelling its task) stops the batch after the images in progress.
    ///
    /// ```swift
    /// for await item in try labeler.results(forImagesAt: urls) {
    ///     switch item.result {
    ///     case .success(let labels): print(item.file.lastPathComponent, labels.first?.text ?? "-")
    ///     case .failure(let error): print(item.file.lastPathComponent, error)
    ///     }
    /// }
    /// ```
    public func results(forImagesAt files: [URL], workers: Int? = nil) throws(TaskError)
        -> AsyncStream<ImageBatchResult<[ImageLabel]>>
    {
        let count = try ImageBatch.workerCount(requested: workers, fileCount: files.count)
        var options = self.options
        options.threadCount = options.threadCount ?? ImageBatch.threadsPerWorker(count)
        var labelers: [ImageLabeler] = []
        for _ in 0..<count { labelers.append(try ImageLabeler(options: options)) }
        return ImageBatch.results(files: files, workers: labelers) { labeler, image throws(TaskError) in
            try labeler.results(in: image)
        }
    }
}

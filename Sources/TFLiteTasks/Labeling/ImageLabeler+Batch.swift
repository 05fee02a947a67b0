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
        try batchResults(forImagesAt: files, workers: workers)
    }
}

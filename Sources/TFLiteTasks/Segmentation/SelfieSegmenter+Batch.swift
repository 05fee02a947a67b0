import Foundation

extension SelfieSegmenter {
    /// Segments every image in `files` and yields one mask per file (at each displayed image's
    /// size), in the order given.
    ///
    /// As ``ImageLabeler/results(forImagesAt:workers:)``: `workers` threads (default: one per
    /// core, never more than the files), one interpreter each over this segmenter's model; a bad
    /// file gives a result carrying its error and the batch goes on.
    public func results(forImagesAt files: [URL], workers: Int? = nil) throws(TaskError)
        -> AsyncStream<ImageBatchResult<ConfidenceMask>>
    {
        try batchResults(forImagesAt: files, workers: workers)
    }
}

import Foundation

extension ObjectDetector {
    /// Detects objects in every image in `files` and yields one result per file, in the order
    /// given; boxes are in pixels of each displayed image (its `imageSize`).
    ///
    /// As ``ImageLabeler/results(forImagesAt:workers:)``: `workers` threads (default: one per
    /// core, never more than the files), one interpreter each over this detector's model; a bad
    /// file gives a result carrying its error and the batch goes on.
    public func results(forImagesAt files: [URL], workers: Int? = nil) throws(TaskError)
        -> AsyncStream<ImageBatchResult<[DetectedObject]>>
    {
        try batchResults(forImagesAt: files, workers: workers)
    }
}

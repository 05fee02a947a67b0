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
        let count = try ImageBatch.workerCount(requested: workers, fileCount: files.count)
        var options = self.options
        options.threadCount = options.threadCount ?? ImageBatch.threadsPerWorker(count)
        var segmenters: [SelfieSegmenter] = []
        for _ in 0..<count { segmenters.append(try SelfieSegmenter(options: options)) }
        return ImageBatch.results(files: files, workers: segmenters) { segmenter, image throws(TaskError) in
            try segmenter.results(in: image)
        }
    }
}

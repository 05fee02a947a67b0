import Foundation
import Imaging
import TFLiteTasks

extension ImageFiles {
    /// The help of `--workers` and `--threads` for the commands that run batches; `verb` says
    /// what is done to an image.
    static func batchOptionsHelp(_ verb: String) -> String {
        """
          --workers N        images \(verb) at once in a batch (default: one per core), each
                             by its own interpreter over the one loaded model
          --threads N        threads per interpreter (default: the cores shared out among
                             the workers; one image: one per core)
        """
    }

    /// The help of a list command's `--json` for a batch, the list of each image under `key`
    /// (after the help's line for one IMAGE), then `batchOptionsHelp(verb)`.
    static func listBatchHelp(key: String, verb: String) -> String {
        """
                             a batch: JSON Lines, one object per image,
                             {"file","width","height","\(key)":[...]} or {"file","error"}
        \(batchOptionsHelp(verb))
        """
    }

    /// The exit status of a command over images, `verb` saying what is done to each.
    static func exitStatusHelp(_ verb: String) -> String {
        """
        Exit status: 0 when every image was \(verb), 1 when any failed (the others are
        still \(verb) and printed) or the model cannot be used, 2 for bad usage.
        """
    }

    /// What `label`, `detect` and `detect-faces` do once their task is built. One image: the
    /// task runs on it, `draw` makes the `annotate` file if one is named, and the list prints as
    /// JSON or as the command's table. Otherwise the task's batch runs on all the files with
    /// ``BatchProgress``'s worker count, one JSON line or table per image.
    func runListTask<Task: ListImageTask>(
        _ task: Task, verb: String, key: String, options: BatchOptions, annotate: String? = nil,
        draw: (([Task.Element], VisionImage) -> Image)? = nil,
        jsonObject: @escaping @Sendable (Task.Element) -> [String: Any],
        table: @escaping @Sendable ([Task.Element], String) -> Void
    ) throws {
        guard isBatch else {
            let imagePath = files[0].relativePath
            let image = try VisionImage(path: imagePath)
            let values = try task.results(in: image)
            if let annotate, let draw { try PNGOutput.write(draw(values, image), to: annotate, option: "--annotate") }
            if options.json {
                print(try JSONOutput.string(values.map(jsonObject)))
            } else {
                table(values, imagePath)
            }
            return
        }
        let progress = BatchProgress(verb: verb, requestedWorkers: options.workers, count: files.count)
        let results = try task.results(forImagesAt: files, workers: progress.workers)
        try progress.run(results, json: options.json, key: key, jsonObject: jsonObject, table: table)
    }
}

/// A task that gives a list per image, one image at a time or a batch of files.
protocol ListImageTask {
    associatedtype Element: Sendable
    func results(in image: VisionImage) throws(TaskError) -> [Element]
    func results(forImagesAt files: [URL], workers: Int?) throws(TaskError) -> AsyncStream<ImageBatchResult<[Element]>>
}

extension ObjectDetector: ListImageTask {}
extension FaceDetector: ListImageTask {}
extension ImageLabeler: ListImageTask {}

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

    /// What `label`, `detect` and `detect-faces` do once their task is built, the task giving a
    /// list per image. One image: `one` runs on it, `draw` makes the `annotate` file if one is
    /// named, and the list prints as JSON or as the command's table. Otherwise `batch` runs on
    /// all the files with ``BatchProgress``'s worker count, one JSON line or table per image.
    func runListTask<Element: Sendable>(
        verb: String, key: String, workers: Int?, json: Bool, annotate: String? = nil,
        one: (VisionImage) throws -> [Element],
        batch: ([URL], Int?) throws -> AsyncStream<ImageBatchResult<[Element]>>,
        draw: (([Element], VisionImage) -> Image)? = nil,
        jsonObject: @escaping @Sendable (Element) -> [String: Any],
        table: @escaping @Sendable ([Element], String) -> Void
    ) throws {
        guard isBatch else {
            let imagePath = files[0].relativePath
            let image = try VisionImage(path: imagePath)
            let values = try one(image)
            if let annotate, let draw { try PNGOutput.write(draw(values, image), to: annotate, option: "--annotate") }
            if json {
                print(try JSONOutput.string(values.map(jsonObject)))
            } else {
                table(values, imagePath)
            }
            return
        }
        let progress = BatchProgress(verb: verb, requestedWorkers: workers, count: files.count)
        let results = try batch(files, progress.workers)
        try progress.run(results, json: json, key: key, jsonObject: jsonObject, table: table)
    }
}

import Foundation
import TFLiteTasks

/// `tflite label`: labels images with a classifier (the bundled EfficientNet-Lite0 by default).
enum LabelCommand: Command {
    static let name = "label"
    static let summary = "label images with a classifier (default: bundled EfficientNet-Lite0)"
    static let help = """
        Usage: tflite label [IMAGE|FOLDER ...] [--model M | --bundle B]
                            [--max-results N] [--threshold T] [--crop] [--json]
                            [--workers N] [--threads N]

        Labels each IMAGE (PNG, PNM or JPEG; default Models/images/chelsea.png) with a
        classification model: the whole image is scaled to the model input (Pillow-style
        bilinear), values follow the model's metadata or input type, and the best labels are
        printed with their confidence. A FOLDER stands for the image files directly in it
        (extensions \(ImageFiles.extensions.joined(separator: ", ")), any case; not subfolders), sorted
        by name.

        One IMAGE prints its labels as below. Several, or a FOLDER, make a batch: the images
        are labelled on all cores, one result per image in the order given; an image that
        cannot be read or decoded is reported on stderr and skipped; stderr shows a progress
        line on a terminal and ends with a summary: labelled N of M images (F failed) in S s:
        R images/s.

        Options:
          --model M          a .tflite classifier (default Models/efficientnet_lite0.tflite);
                             labels come from its metadata
          --bundle B         an AutoML image labelling bundle: its folder or its manifest.json
          --remote NAME --url MANIFEST_URL [--cache-dir D]
                             a remotely hosted model: downloaded (or refreshed) into the
                             cache first; the --model/--bundle/default model is the
                             fallback when the download fails or is missing
          --max-results N    at most N labels per image (default 10, as ML Kit)
          --threshold T      keep labels of confidence T or more (ML Kit's confidenceThreshold).
                             Default: the model metadata's score threshold, else 0, and then
                             labels of confidence exactly 0 are left out; --threshold 0 lists them
          --crop             cut the centred square before resizing
          --json             one IMAGE: print [{"index":..,"text":..,"confidence":..}, ...];
        \(ImageFiles.listBatchHelp(key: "labels", verb: "labelled"))

        \(ImageFiles.exitStatusHelp("labelled"))

        Examples:
          tflite label
          tflite label Models/images/coffee.png --max-results 3 --json
          tflite label photos/ --bundle exported/ --json > labels.jsonl
        """

    static func run(_ arguments: inout Arguments) throws {
        let modelPath = try arguments.option("--model")
        let bundle = try arguments.option("--bundle")
        let maxResults = try arguments.intOption("--max-results", in: 1...100_000) ?? 10
        let threshold = try arguments.doubleOption("--threshold")
        let crop = arguments.flag("--crop")
        let batch = try BatchOptions(&arguments)
        let remote = try RemoteOption(&arguments)
        let positionals = try arguments.positionals()
        guard modelPath == nil || bundle == nil else { throw UsageError("give --model or --bundle, not both") }
        let images = try ImageFiles(positionals.isEmpty ? [try DefaultResources.path("Models/images/chelsea.png")] : positionals)

        let fallback = try bundle.map { try LocalModel(bundle: $0) }
            ?? LocalModel(path: modelPath ?? DefaultResources.path("Models/efficientnet_lite0.tflite"))
        let local = try remote?.model(fallback: fallback) ?? fallback
        var options = CustomImageLabelerOptions(localModel: local)
        options.maxResultCount = maxResults
        options.confidenceThreshold = threshold.map { Float($0) }
        options.cropsToSquare = crop
        options.threadCount = batch.threads
        let labeler = try ImageLabeler(options: options)

        try images.runListTask(
            labeler, verb: "labelled", key: "labels", options: batch,
            jsonObject: jsonObject, table: { printTable($0, for: $1) })
    }

    private static func jsonObject(_ label: ImageLabel) -> [String: Any] {
        ["index": label.index, "text": label.text, "confidence": Double(label.confidence)]
    }

    private static func printTable(_ labels: [ImageLabel], for imagePath: String) {
        print("\(imagePath): \(labels.count) label(s)")
        print("rank  index  confidence  label")
        for (rank, label) in labels.enumerated() {
            let confidence = String(format: "%.4f", label.confidence)
            print("\(String(rank + 1).leftPad(4))  \(String(label.index).leftPad(5))  \(confidence.leftPad(10))  \(label.text)")
        }
    }
}

extension String {
    func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

import Foundation
import Imaging
import TFLiteRuntime
import TFLiteTasks

/// `tflite detect`: detects objects in images with an SSD-style model or an AutoML detection bundle.
enum DetectCommand: Command {
    static let name = "detect"
    static let summary = "detect objects with an SSD-style model or AutoML bundle"
    static let help = """
        Usage: tflite detect IMAGE|FOLDER ... (--model M [--labels L] | --bundle B)
                             [--threshold T] [--max-results N] [--annotate OUT.png] [--json]
                             [--workers N] [--threads N]

        Runs a detector ending in TFLite_Detection_PostProcess on each IMAGE (the whole image
        scaled to the model input) and prints each detection with its box in image pixels.
        A FOLDER stands for the image files directly in it (extensions
        \(ImageFiles.extensions.joined(separator: ", ")), any case; not subfolders), sorted by name.

        One IMAGE prints its detections as below. Several, or a FOLDER, make a batch: the
        images are processed on all cores, one result per image in the order given; an image
        that cannot be read or decoded is reported on stderr and skipped; stderr shows a
        progress line on a terminal and ends with a summary: detected in N of M images
        (F failed) in S s: R images/s.

        Options:
          --model M          a .tflite detector
          --labels L         a labels file, one per line, line i naming class i
          --bundle B         an AutoML detection bundle: its folder or its tflite_metadata.json
                             (the folder also holds dict.txt and the model)
          --threshold T      keep detections scoring T or more (ML Kit's confidenceThreshold).
                             Default: the model metadata's threshold, else 0, and then
                             detections scoring exactly 0 are left out
          --max-results N    at most N detections per image (default: all the model reports)
          --annotate OUT.png write the image as PNG with the boxes drawn (one IMAGE only; the
                             name must end in .png, the only format written)
          --remote NAME --url MANIFEST_URL [--cache-dir D]
                             a remotely hosted detector, downloaded (or refreshed) first;
                             the --model/--bundle model is the fallback
          --json             one IMAGE: print [{"index","text","confidence","box":{"left","top","right","bottom"}}];
        \(ImageFiles.listBatchHelp(key: "objects", verb: "processed"))

        \(ImageFiles.exitStatusHelp("processed"))

        Example:
          tflite detect photo.png --bundle Tests/Fixtures/corpus/bundles/automl_detector --annotate out.png
        """

    static func run(_ arguments: inout Arguments) throws {
        let modelPath = try arguments.option("--model")
        let labelsPath = try arguments.option("--labels")
        let bundle = try arguments.option("--bundle")
        let threshold = try arguments.doubleOption("--threshold")
        let maxResults = try arguments.intOption("--max-results", in: 0...100_000)
        let annotate = try arguments.option("--annotate")
        let batch = try BatchOptions(&arguments)
        let remote = try RemoteOption(&arguments)
        let positionals = try arguments.positionals()
        let images = try ImageFiles(required: positionals, annotate: annotate)
        var local: LocalModel
        switch (modelPath, bundle) {
        case (let m?, nil): local = try LocalModel(path: m, labelsPath: labelsPath)
        case (nil, let b?):
            guard labelsPath == nil else { throw UsageError("--labels goes with --model; a bundle has its own dict.txt") }
            local = try LocalModel(bundle: b)
        default: throw UsageError("give exactly one of --model or --bundle")
        }
        if let remote { local = try remote.model(fallback: local) }
        var options = CustomObjectDetectorOptions(localModel: local)
        options.confidenceThreshold = threshold.map { Float($0) }
        options.maxResultCount = maxResults
        options.threadCount = batch.threads
        let detector = try ObjectDetector(options: options)

        try images.runListTask(
            detector, verb: "detected in", key: "objects", options: batch, annotate: annotate,
            draw: ObjectAnnotation.draw, jsonObject: jsonObject, table: { printTable($0, for: $1) })
    }

    private static func jsonObject(_ o: DetectedObject) -> [String: Any] {
        ["index": o.index, "text": o.text, "confidence": Double(o.confidence),
         "box": JSONOutput.box(o.frame)]
    }

    private static func printTable(_ objects: [DetectedObject], for imagePath: String) {
        print("\(imagePath): \(objects.count) detection(s)")
        print("index  confidence  label       box (left, top, right, bottom)")
        for o in objects {
            let box = [o.frame.left, o.frame.top, o.frame.right, o.frame.bottom].map { String(format: "%.1f", $0) }
            let label = o.text.padding(toLength: max(10, o.text.count), withPad: " ", startingAt: 0)
            print("\(String(o.index).leftPad(5))  \(String(format: "%.4f", o.confidence).leftPad(10))  \(label)  (\(box.joined(separator: ", ")))")
        }
    }
}

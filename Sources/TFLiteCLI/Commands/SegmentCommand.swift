import Foundation
import TFLiteTasks

/// `tflite segment`: separates people from the background with MediaPipe's selfie segmentation.
enum SegmentCommand: Command {
    static let name = "segment"
    static let summary = "mask the people in images (default: bundled selfie segmentation)"
    static let help = """
        Usage: tflite segment IMAGE|FOLDER ... [--model M] [--threshold T] [--annotate OUT.png]
                              [--mask OUT.png] [--json] [--workers N] [--threads N]

        Computes for each IMAGE how likely each pixel shows a person, as MediaPipe's image
        segmenter does with the selfie segmentation model: the image stretched to the
        model's 256x256 input, its confidence mask resized back to the image's size. Prints
        the share of pixels whose confidence is above the threshold (the person) and the box
        around them. A FOLDER stands for the image files directly in it (extensions
        \(ImageFiles.extensions.joined(separator: ", ")), any case; not subfolders), sorted by name.

        One IMAGE prints one line. Several, or a FOLDER, make a batch: the images are
        processed on all cores, one result per image in the order given; an image that
        cannot be read or decoded is reported on stderr and skipped; stderr shows a progress
        line on a terminal and ends with a summary: segmented N of M images (F failed) in
        S s: R images/s.

        Options:
          --model M          a selfie segmentation model: one float image input, one
                             [1, H, W, 1] confidence output (default: the bundled
                             Models/selfie_segmentation.tflite)
          --threshold T      a pixel is the person when its confidence is above T, 0...1
                             (default 0.5, where MediaPipe's category mask cuts)
          --annotate OUT.png write the image as PNG with the person tinted by the confidence
                             (one IMAGE only; the name must end in .png, the only format written)
          --mask OUT.png     write the confidence mask as an 8-bit gray PNG, 255 x confidence
                             (one IMAGE only)
          --json             print {"width","height","threshold","foreground_fraction",
                             "mean_confidence","box":{"left","top","right","bottom"} or null};
                             a batch: JSON Lines, the same with "file", or {"file","error"}
        \(ImageFiles.batchOptionsHelp("processed"))

        \(ImageFiles.exitStatusHelp("processed"))

        Examples:
          tflite segment Models/images/astronaut.png --annotate person.png --mask mask.png
          tflite segment photos/ --json > people.jsonl
        """

    static func run(_ arguments: inout Arguments) throws {
        let modelPath = try arguments.option("--model")
        let threshold = try arguments.doubleOption("--threshold") ?? 0.5
        let annotate = try arguments.option("--annotate")
        let maskPath = try arguments.option("--mask")
        let batch = try BatchOptions(&arguments)
        let positionals = try arguments.positionals()
        let images = try ImageFiles(required: positionals, annotate: annotate)
        guard (0...1).contains(threshold) else { throw UsageError("option --threshold needs a number in 0...1, got \(threshold)") }
        if let maskPath { try PNGOutput.check(maskPath, option: "--mask", isBatch: images.isBatch) }

        var options = SelfieSegmenterOptions(localModel: try LocalModel(path: modelPath ?? DefaultResources.path("Models/selfie_segmentation.tflite")))
        options.threadCount = batch.threads
        let segmenter = try SelfieSegmenter(options: options)
        let cut = Float(threshold)

        guard images.isBatch else {
            let imagePath = images.files[0].relativePath
            let image = try VisionImage(path: imagePath)
            let mask = try segmenter.results(in: image)
            if let annotate { try PNGOutput.write(MaskAnnotation.draw(mask, on: image), to: annotate, option: "--annotate") }
            if let maskPath { try PNGOutput.write(mask.grayImage(), to: maskPath, option: "--mask") }
            if batch.json {
                print(try JSONOutput.string(jsonObject(mask, threshold: cut)))
            } else {
                printLine(mask, threshold: cut, for: imagePath)
            }
            return
        }
        let progress = BatchProgress(verb: "segmented", requestedWorkers: batch.workers, count: images.files.count)
        let results = try segmenter.results(forImagesAt: images.files, workers: progress.workers)
        try progress.run(results, json: batch.json) { item, mask in
            if batch.json {
                var object = jsonObject(mask, threshold: cut)
                object["file"] = item.file.relativePath
                print(try JSONOutput.string(object))
            } else {
                printLine(mask, threshold: cut, for: item.file.relativePath)
            }
        }
    }

    private static func jsonObject(_ mask: ConfidenceMask, threshold: Float) -> [String: Any] {
        let person = mask.binaryMask(threshold: threshold)
        let box: Any = person.boundingBox.map(JSONOutput.box) ?? NSNull()
        return ["width": mask.width, "height": mask.height, "threshold": Double(threshold),
                "foreground_fraction": Double(person.fraction), "mean_confidence": Double(mask.mean), "box": box]
    }

    private static func printLine(_ mask: ConfidenceMask, threshold: Float, for imagePath: String) {
        let person = mask.binaryMask(threshold: threshold)
        let share = String(format: "%.1f%%", person.fraction * 100)
        let box = person.boundingBox.map { b in
            "box (\([b.left, b.top, b.right, b.bottom].map { String(Int($0)) }.joined(separator: ", ")))"
        } ?? "no pixel above the threshold"
        print("\(imagePath): \(mask.width)x\(mask.height), person \(share) of pixels (confidence > \(threshold)), \(box)")
    }
}

import Foundation
import TFLiteTasks

/// `tflite label`: labels an image with a classifier (the bundled EfficientNet-Lite0 by default).
enum LabelCommand: Command {
    static let name = "label"
    static let summary = "label an image with a classifier (default: bundled EfficientNet-Lite0)"
    static let help = """
        Usage: tflite label [IMAGE] [--model M | --bundle DIR/manifest.json]
                            [--max-results N] [--threshold T] [--crop] [--json]

        Labels IMAGE (PNG, PNM or JPEG; default Models/images/chelsea.png) with a
        classification model: the whole image is scaled to the model input (Pillow-style
        bilinear), values follow the model's metadata or input type, and the best labels are
        printed with their confidence.

        Options:
          --model M          a .tflite classifier (default Models/efficientnet_lite0.tflite);
                             labels come from its metadata
          --bundle FILE      an AutoML bundle's manifest.json (model + dict.txt)
          --max-results N    at most N labels (default 5)
          --threshold T      drop labels below confidence T (default: the model's metadata
                             threshold, else 0)
          --crop             cut the centred square before resizing
          --json             print [{"index":..,"text":..,"confidence":..}, ...]

        Examples:
          tflite label
          tflite label Models/images/coffee.png --max-results 3 --json
          tflite label photo.jpg --bundle exported/manifest.json
        """

    static func run(_ arguments: inout Arguments) throws {
        let modelPath = try arguments.option("--model")
        let bundle = try arguments.option("--bundle")
        let maxResults = try arguments.intOption("--max-results", in: 1...100_000) ?? 5
        let threshold = try arguments.doubleOption("--threshold")
        let crop = arguments.flag("--crop")
        let json = arguments.flag("--json")
        let positionals = try arguments.positionals()
        guard positionals.count <= 1 else { throw UsageError("expected at most one IMAGE, got \(positionals.count) arguments") }
        guard modelPath == nil || bundle == nil else { throw UsageError("give --model or --bundle, not both") }

        let local = try bundle.map { try LocalModel(manifestPath: $0) }
            ?? LocalModel(path: modelPath ?? DefaultResources.path("Models/efficientnet_lite0.tflite"))
        var options = CustomImageLabelerOptions(localModel: local)
        options.maxResultCount = maxResults
        options.confidenceThreshold = threshold.map { Float($0) }
        options.cropsToSquare = crop
        let labeler = try ImageLabeler(options: options)
        let imagePath = positionals.first ?? DefaultResources.path("Models/images/chelsea.png")
        let labels = try labeler.results(in: VisionImage(path: imagePath))

        if json {
            print(try JSONOutput.string(labels.map { ["index": $0.index, "text": $0.text, "confidence": Double($0.confidence)] }))
            return
        }
        print("\(imagePath): \(labels.count) label(s)")
        print("rank  index  confidence  label")
        for (rank, label) in labels.enumerated() {
            let confidence = String(format: "%.4f", label.confidence)
            print("\(String(rank + 1).leftPad(4))  \(String(label.index).leftPad(5))  \(confidence.leftPad(10))  \(label.text)")
        }
    }
}

/// Files shipped in the repository, found from the working directory or the executable's
/// location (a fresh clone run with `swift run`).
enum DefaultResources {
    static func path(_ relative: String) -> String {
        let fm = FileManager.default
        if fm.fileExists(atPath: relative) { return relative }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent(relative).path
            if fm.fileExists(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return relative
    }
}

/// Compact JSON for `--json` output, keys in a fixed order.
enum JSONOutput {
    static func string(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

extension String {
    func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

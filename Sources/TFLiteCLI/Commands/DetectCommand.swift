import Foundation
import Imaging
import TFLiteTasks

/// `tflite detect`: detects objects with an SSD-style model or an AutoML detection bundle.
enum DetectCommand: Command {
    static let name = "detect"
    static let summary = "detect objects with an SSD-style model or AutoML bundle"
    static let help = """
        Usage: tflite detect IMAGE (--model M [--labels L] | --bundle DIR)
                             [--threshold T] [--max-results N] [--annotate OUT.png] [--json]

        Runs a detector ending in TFLite_Detection_PostProcess on IMAGE (the whole image
        scaled to the model input) and prints each detection with its box in image pixels.

        Options:
          --model M          a .tflite detector
          --labels L         a labels file, one per line, line i naming class i
          --bundle DIR       an AutoML detection bundle (tflite_metadata.json, dict.txt, model)
          --threshold T      drop detections scoring below T (default 0)
          --max-results N    at most N detections
          --annotate OUT     write IMAGE as PNG with the boxes drawn
          --remote NAME --url MANIFEST_URL [--cache-dir D]
                             a remotely hosted detector, downloaded (or refreshed) first;
                             the --model/--bundle model is the fallback
          --json             print [{"index","text","confidence","box":{"left","top","right","bottom"}}]

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
        let json = arguments.flag("--json")
        let remote = try RemoteOption(&arguments)
        let imagePath = try arguments.positionals(exactly: "IMAGE")[0]
        var local: LocalModel
        switch (modelPath, bundle) {
        case (let m?, nil): local = try LocalModel(path: m, labelsPath: labelsPath)
        case (nil, let b?):
            guard labelsPath == nil else { throw UsageError("--labels goes with --model; a bundle has its own dict.txt") }
            local = try LocalModel(detectionBundle: b)
        default: throw UsageError("give exactly one of --model or --bundle")
        }
        if let remote { local = try remote.model(fallback: local) }
        var options = CustomObjectDetectorOptions(localModel: local)
        options.confidenceThreshold = threshold.map { Float($0) }
        options.maxResultCount = maxResults
        let detector = try ObjectDetector(options: options)
        let image = try VisionImage(path: imagePath)
        let objects = try detector.results(in: image)

        if let annotate {
            try AnnotatedImage.write(image, objects: objects, to: annotate)
        }
        if json {
            print(try JSONOutput.string(objects.map { o -> [String: Any] in
                ["index": o.index, "text": o.text, "confidence": Double(o.confidence),
                 "box": ["left": Double(o.frame.left), "top": Double(o.frame.top),
                         "right": Double(o.frame.right), "bottom": Double(o.frame.bottom)]]
            }))
            return
        }
        print("\(imagePath): \(objects.count) detection(s)")
        print("index  confidence  label       box (left, top, right, bottom)")
        for o in objects {
            let box = [o.frame.left, o.frame.top, o.frame.right, o.frame.bottom].map { String(format: "%.1f", $0) }
            let label = o.text.padding(toLength: max(10, o.text.count), withPad: " ", startingAt: 0)
            print("\(String(o.index).leftPad(5))  \(String(format: "%.4f", o.confidence).leftPad(10))  \(label)  (\(box.joined(separator: ", ")))")
        }
    }
}

/// Draws detection boxes with their label and score on the displayed image and writes it as
/// a PNG.
enum AnnotatedImage {
    static let palette: [Color] = [.red, .green, .blue, .yellow, Color(red: 255, green: 0, blue: 255), Color(red: 0, green: 220, blue: 220)]

    static func write(_ image: VisionImage, objects: [DetectedObject], to path: String) throws {
        var canvas = image.image.applying(image.orientation).to8Bit().converted(to: .rgb)
        let line = max(2, min(canvas.width, canvas.height) / 150)
        let scale = max(1, min(canvas.width, canvas.height) / 200)
        for o in objects {
            let color = palette[((o.index % palette.count) + palette.count) % palette.count]
            let l = Int(o.frame.left.rounded()), t = Int(o.frame.top.rounded())
            let r = Int(o.frame.right.rounded()), b = Int(o.frame.bottom.rounded())
            canvas.drawRectangle(x: l, y: t, width: max(1, r - l), height: max(1, b - t), color: color, lineWidth: line)
            let text = "\(o.text.isEmpty ? String(o.index) : o.text) \(Int((o.confidence * 100).rounded()))%"
            let labelHeight = 9 * scale
            canvas.drawLabel(text, x: l, y: max(0, t - labelHeight), background: color, scale: scale)
        }
        try Data(PNGEncoder.encode(canvas)).write(to: URL(fileURLWithPath: path))
    }
}

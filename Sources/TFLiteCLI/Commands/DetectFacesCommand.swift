import Foundation
import TFLiteTasks

/// `tflite detect-faces`: finds faces with MediaPipe's BlazeFace short-range detector.
enum DetectFacesCommand: Command {
    static let name = "detect-faces"
    static let summary = "find faces and their keypoints (default: bundled BlazeFace short range)"
    static let help = """
        Usage: tflite detect-faces IMAGE|FOLDER ... [--model M] [--threshold T] [--max-results N]
                                   [--annotate OUT.png] [--json] [--workers N] [--threads N]

        Finds faces in each IMAGE as MediaPipe's face detector does: the image letterboxed
        into the model's 128x128 input (aspect ratio kept, black bars), boxes and six
        keypoints decoded against MediaPipe's SSD anchors, overlapping detections merged by
        weighted non-maximum suppression (IoU 0.3), and the results mapped back to image
        pixels. Boxes are clipped to the image; keypoints are not. The model is meant for
        faces within about two metres of the camera (selfies, portraits); small faces in a
        wide shot are missed. A FOLDER stands for the image files directly in it
        (extensions \(ImageFiles.extensions.joined(separator: ", ")), any case; not
        subfolders), sorted by name.

        One IMAGE prints its faces as below. Several, or a FOLDER, make a batch: the images
        are processed on all cores, one result per image in the order given; an image that
        cannot be read or decoded is reported on stderr and skipped; stderr shows a progress
        line on a terminal and ends with a summary: searched N of M images (F failed)
        in S s: R images/s.

        Keypoints, in order: \(FaceKeypoint.Kind.allCases.map(\.description).joined(separator: ", ")).

        Options:
          --model M          a BlazeFace short-range model (default: the bundled
                             Models/face_detection_short_range.tflite)
          --threshold T      keep faces scoring T or more, 0...1 (default 0.5, MediaPipe's
                             min_detection_confidence)
          --max-results N    at most N faces per image, best first (default: all)
          --annotate OUT.png write the image as PNG with the boxes, scores and keypoints drawn
                             (one IMAGE only; the name must end in .png, the only format written)
          --json             one IMAGE: print [{"confidence","box":{"left","top","right","bottom"},
                             "keypoints":[{"name","x","y"}, ...]}, ...];
        \(ImageFiles.listBatchHelp(key: "faces", verb: "processed"))

        Exit status: 0 when every image was processed (with or without faces), 1 when any
        failed (the others are still processed and printed) or the model cannot be used,
        2 for bad usage.

        Examples:
          tflite detect-faces Models/images/astronaut.png --annotate faces.png
          tflite detect-faces photos/ --json > faces.jsonl
        """

    static func run(_ arguments: inout Arguments) throws {
        let modelPath = try arguments.option("--model")
        let threshold = try arguments.doubleOption("--threshold")
        let maxResults = try arguments.intOption("--max-results", in: 0...100_000)
        let annotate = try arguments.option("--annotate")
        let batch = try BatchOptions(&arguments)
        let positionals = try arguments.positionals()
        let images = try ImageFiles(required: positionals, annotate: annotate)
        if let threshold, !(0...1).contains(threshold) { throw UsageError("option --threshold needs a number in 0...1, got \(threshold)") }

        var options = FaceDetectorOptions(localModel: try LocalModel(path: modelPath ?? DefaultResources.path("Models/face_detection_short_range.tflite")))
        if let threshold { options.minDetectionConfidence = Float(threshold) }
        options.maxResultCount = maxResults
        options.threadCount = batch.threads
        let detector = try FaceDetector(options: options)

        try images.runListTask(
            detector, verb: "searched", key: "faces", options: batch, annotate: annotate,
            draw: FaceAnnotation.draw, jsonObject: jsonObject, table: { printTable($0, for: $1) })
    }

    private static func jsonObject(_ face: DetectedFace) -> [String: Any] {
        ["confidence": Double(face.confidence),
         "box": JSONOutput.box(face.frame),
         "keypoints": face.keypoints.map { ["name": $0.kind.description, "x": Double($0.x), "y": Double($0.y)] }]
    }

    private static func printTable(_ faces: [DetectedFace], for imagePath: String) {
        print("\(imagePath): \(faces.count) face(s)")
        guard !faces.isEmpty else { return }
        print("confidence  box (left, top, right, bottom)   keypoints (x, y)")
        for face in faces {
            let box = [face.frame.left, face.frame.top, face.frame.right, face.frame.bottom].map { String(format: "%.1f", $0) }
            let keypoints = face.keypoints.map { "\($0.kind) (\(String(format: "%.1f", $0.x)), \(String(format: "%.1f", $0.y)))" }
            let boxText = "(\(box.joined(separator: ", ")))"
            print("\(String(format: "%.4f", face.confidence).leftPad(10))  \(boxText.padding(toLength: max(31, boxText.count), withPad: " ", startingAt: 0))  \(keypoints.joined(separator: ", "))")
        }
    }
}

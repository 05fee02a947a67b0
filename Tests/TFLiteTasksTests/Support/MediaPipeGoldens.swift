import Foundation
import Imaging
import TestSupport
@testable import TFLiteTasks

/// The goldens MediaPipe computed for the face detector and the selfie segmenter
/// (`Tests/Fixtures/tasks/mediapipe`, written by `Scripts/face_goldens.py`).
enum MediaPipeGoldens {
    static let root = TaskFixtures.root.appendingPathComponent("mediapipe")

    static func load<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: root.appendingPathComponent(name)))
    }

    /// One repository image, optionally cropped and mirrored; images are these side by side.
    struct Tile: Decodable {
        var file: String
        var crop: [Int]?
        var mirrored: Bool
    }

    /// A detection as MediaPipe's protos hold it: relative box `[xmin, ymin, width, height]`.
    struct Detection: Decodable {
        var score: Float
        var box: [Float]
        var keypoints: [[Float]]

        var relative: RelativeDetection {
            RelativeDetection(score: score, xMin: box[0], yMin: box[1], width: box[2], height: box[3],
                              keypoints: keypoints.map { SIMD2($0[0], $0[1]) })
        }
    }

    struct AnchorConfig: Decodable {
        struct Options: Decodable {
            var min_scale: Float, max_scale: Float
            var input_size_width: Int, input_size_height: Int
            var anchor_offset_x: Float, anchor_offset_y: Float
            var strides: [Int]
            var aspect_ratios: [Float]
            var fixed_anchor_size: Bool?
            var interpolated_scale_aspect_ratio: Float?
            var reduce_boxes_in_lowest_layer: Bool?
        }
        var name: String
        var options: Options
        var anchors: [[Float]]
    }
    struct Anchors: Decodable { var configs: [AnchorConfig] }

    struct NMSCase: Decodable {
        var name: String
        var threshold: Float
        var input: [Detection]
        var output: [Detection]
    }
    struct NMS: Decodable { var cases: [NMSCase] }

    struct FaceImage: Decodable {
        var name: String
        var tiles: [Tile]
        var width: Int, height: Int
        /// The graph's faces (relative, unclipped boxes).
        var faces: [Detection]
        /// The FaceDetector task's faces: whole-pixel boxes `[x, y, width, height]` clipped to
        /// the image, relative keypoints.
        var task_faces: [Detection]
        /// TensorsToDetectionsCalculator's output, for images 128 pixels on their long side.
        var unfiltered: [Detection]?
    }
    struct Faces: Decodable { var images: [FaceImage] }

    struct SegmentationImage: Decodable {
        var name: String
        var tiles: [Tile]
        var width: Int, height: Int
        var confidence_mask: String
        var category_mask: String
    }
    struct Segmentation: Decodable { var images: [SegmentationImage] }

    struct Warp: Decodable {
        var name: String
        var tiles: [Tile]
        var width: Int, height: Int
        var keep_aspect_ratio: Bool
        var file: String
    }
    struct MaskResize: Decodable {
        var width: Int, height: Int, values: [Float]
        var out_width: Int, out_height: Int, out_values: [Float]
    }
    struct Resampling: Decodable {
        var warps: [Warp]
        var mask_resizes: [MaskResize]
    }

    /// The test image `tiles` describe, rebuilt pixel for pixel as the script built it (8-bit RGB).
    static func image(_ tiles: [Tile]) throws -> Image {
        var parts: [Image] = []
        for tile in tiles {
            var part = try VisionImage(path: Fixtures.root.appendingPathComponent(tile.file).path).orientedRGB()
            if let c = tile.crop { part = try part.cropped(x: c[0], y: c[1], width: c[2], height: c[3]) }
            if tile.mirrored { part = part.applying(.upMirrored) }
            parts.append(part)
        }
        let height = parts[0].height, width = parts.reduce(0) { $0 + $1.width }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var x0 = 0
        for part in parts {
            precondition(part.height == height, "tiles must have one height")
            let rows = part.pixels8!
            for y in 0..<height {
                for x in 0..<part.width {
                    for c in 0..<3 { pixels[(y * width + x0 + x) * 3 + c] = rows[(y * part.width + x) * 3 + c] }
                }
            }
            x0 += part.width
        }
        return try Image(width: width, height: height, pixelLayout: .rgb, pixels: pixels)
    }

    /// A repository PNG's 8-bit samples.
    static func png(_ relative: String) throws -> Image {
        try VisionImage(path: root.appendingPathComponent(relative).path).image
    }
}

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
        let imagePath = try arguments.positionals(exactly: "IMAGE")[0]
        let local: LocalModel
        switch (modelPath, bundle) {
        case (let m?, nil): local = try LocalModel(path: m, labelsPath: labelsPath)
        case (nil, let b?):
            guard labelsPath == nil else { throw UsageError("--labels goes with --model; a bundle has its own dict.txt") }
            local = try LocalModel(detectionBundle: b)
        default: throw UsageError("give exactly one of --model or --bundle")
        }
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

/// Draws detection boxes (and each box's class index as a small digit strip) on the displayed
/// image and writes it as an 8-bit RGB PNG.
enum AnnotatedImage {
    static let palette: [(UInt8, UInt8, UInt8)] = [(255, 64, 64), (64, 200, 64), (64, 128, 255), (255, 200, 0), (255, 0, 255), (0, 220, 220)]

    static func write(_ image: VisionImage, objects: [DetectedObject], to path: String) throws {
        let oriented = image.image.applying(image.orientation).to8Bit()
        let w = oriented.width, h = oriented.height, c = oriented.channels
        let src = oriented.pixels8 ?? []
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        for i in 0..<(w * h) {
            for k in 0..<3 { rgb[i * 3 + k] = src[i * c + (c < 3 ? 0 : k)] }
        }
        func put(_ x: Int, _ y: Int, _ color: (UInt8, UInt8, UInt8)) {
            guard x >= 0, y >= 0, x < w, y < h else { return }
            rgb[(y * w + x) * 3] = color.0
            rgb[(y * w + x) * 3 + 1] = color.1
            rgb[(y * w + x) * 3 + 2] = color.2
        }
        let thickness = max(2, min(w, h) / 150)
        for o in objects {
            let color = palette[((o.index % palette.count) + palette.count) % palette.count]
            let l = Int(o.frame.left), t = Int(o.frame.top), r = Int(o.frame.right), b = Int(o.frame.bottom)
            for d in 0..<thickness {
                for x in l...max(l, r) { put(x, t + d, color); put(x, b - d, color) }
                for y in t...max(t, b) { put(l + d, y, color); put(r - d, y, color) }
            }
            // Label: the text in a 3x5 pixel font, scaled, on a filled strip above the box.
            let scale = max(2, thickness)
            let text = "\(o.text.isEmpty ? String(o.index) : o.text) \(Int((o.confidence * 100).rounded()))%"
            let glyphs = Array(text.lowercased())
            let stripTop = max(0, t - 7 * scale)
            for y in stripTop..<(stripTop + 7 * scale) {
                for x in l..<(l + glyphs.count * 4 * scale + scale) { put(x, y, color) }
            }
            for (g, ch) in glyphs.enumerated() {
                let bits = TinyFont.glyph(ch)
                for row in 0..<5 {
                    for col in 0..<3 where bits & (1 << (14 - (row * 3 + col))) != 0 {
                        for dy in 0..<scale {
                            for dx in 0..<scale {
                                put(l + scale + (g * 4 + col) * scale + dx, stripTop + scale + row * scale + dy, (0, 0, 0))
                            }
                        }
                    }
                }
            }
        }
        try Data(PNGWriter.encode(rgb: rgb, width: w, height: h)).write(to: URL(fileURLWithPath: path))
    }
}

/// A 3x5 pixel font: 15 bits per glyph, row by row from the top, left pixel highest.
enum TinyFont {
    static func glyph(_ c: Character) -> Int {
        switch c {
        case "0": return 0b111_101_101_101_111
        case "1": return 0b010_110_010_010_111
        case "2": return 0b111_001_111_100_111
        case "3": return 0b111_001_111_001_111
        case "4": return 0b101_101_111_001_001
        case "5": return 0b111_100_111_001_111
        case "6": return 0b111_100_111_101_111
        case "7": return 0b111_001_010_010_010
        case "8": return 0b111_101_111_101_111
        case "9": return 0b111_101_111_001_111
        case "a": return 0b010_101_111_101_101
        case "b": return 0b110_101_110_101_110
        case "c": return 0b011_100_100_100_011
        case "d": return 0b110_101_101_101_110
        case "e": return 0b111_100_110_100_111
        case "f": return 0b111_100_110_100_100
        case "g": return 0b011_100_101_101_011
        case "h": return 0b101_101_111_101_101
        case "i": return 0b111_010_010_010_111
        case "j": return 0b001_001_001_101_010
        case "k": return 0b101_101_110_101_101
        case "l": return 0b100_100_100_100_111
        case "m": return 0b101_111_111_101_101
        case "n": return 0b110_101_101_101_101
        case "o": return 0b010_101_101_101_010
        case "p": return 0b110_101_110_100_100
        case "q": return 0b010_101_101_110_011
        case "r": return 0b110_101_110_101_101
        case "s": return 0b011_100_010_001_110
        case "t": return 0b111_010_010_010_010
        case "u": return 0b101_101_101_101_111
        case "v": return 0b101_101_101_101_010
        case "w": return 0b101_101_111_111_101
        case "x": return 0b101_101_010_101_101
        case "y": return 0b101_101_010_010_010
        case "z": return 0b111_001_010_100_111
        case "%": return 0b101_001_010_100_101
        case ".": return 0b000_000_000_000_010
        case "-", "_": return 0b000_000_111_000_000
        default: return 0
        }
    }
}

/// A minimal PNG encoder: 8-bit RGB, filter 0, zlib stream of stored (uncompressed) blocks.
enum PNGWriter {
    static func encode(rgb: [UInt8], width: Int, height: Int) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity((width * 3 + 1) * height)
        for y in 0..<height {
            raw.append(0)
            raw.append(contentsOf: rgb[(y * width * 3)..<((y + 1) * width * 3)])
        }
        var z: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65_535, raw.count - offset)
            z.append(offset + n == raw.count ? 1 : 0)
            z.append(contentsOf: [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)])
            z.append(contentsOf: raw[offset..<(offset + n)])
            offset += n
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        z.append(contentsOf: be32(b << 16 | a))
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0], into: &png)
        chunk("IDAT", z, into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    private static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    private static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
        png += be32(UInt32(data.count))
        let body = Array(type.utf8) + data
        png += body
        var crc = CRC32()
        crc.update(body)
        png += be32(crc.value)
    }
}

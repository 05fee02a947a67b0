// The Imaging module's overview (Sources/Imaging/Imaging.docc): decode a photo, prepare model
// inputs from it, annotate it and write a PNG. Run it from the repository's root:
//
//     swift run -c release ImagingBasicsExample [OUTPUT.png]
import Foundation
import Imaging

let fileBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "Models/images/chelsea.png")))

let decoded = try ImageDecoder.decode(bytes: fileBytes)     // DecodeLimits.default
let upright = decoded.orientedImage                          // or decoded.image.applying(.right)
print(decoded.format, upright.width, upright.height)

let square = upright.converted(to: .rgb).centerSquareCropped()
let input = try square.resized(width: 224, height: 224, method: .pillowBilinear)
let floats = try input.floatTensor(.signedUnitRange)                  // [-1, 1], HWC
let int8 = try input.int8Tensor(scale: 1 / 128, zeroPoint: 0, normalization: .signedUnitRange)
let bytes = input.uint8Tensor()                                       // raw 0...255
print(floats.count, int8.count, bytes.count)

var canvas = upright.converted(to: .rgb)
canvas.drawRectangle(x: 10, y: 20, width: 100, height: 80, color: .red)
canvas.drawLabel("CAT 0.93", x: 10, y: 8)
let png = try PNGEncoder.encode(canvas)

let output = CommandLine.arguments.dropFirst().first ?? NSTemporaryDirectory() + "imaging-example.png"
try Data(png).write(to: URL(fileURLWithPath: output))
print("wrote", output, png.count, "bytes")

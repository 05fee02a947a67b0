import Foundation
import Imaging
import Testing
import TestSupport
import TFLiteRuntime

/// Resizing against Pillow-made arrays (Tests/Fixtures/imaging, see its README) and
/// against a direct evaluation of the documented formulas.
@Suite struct ResizeTests {
    static let sizes = [(32, 21), (160, 100), (77, 20), (13, 51), (5, 3), (1, 1), (200, 7), (150, 30), (40, 300)]

    static func source(_ name: String) throws -> Image {
        try ImageDecoder.decode(bytes: try Fixtures.corpusBytes("images/" + name)).image
    }

    static func fixture(_ name: String) throws -> NPYArray {
        try NPYArray(contentsOf: Fixtures.root.appendingPathComponent("Tests/Fixtures/imaging/\(name).npy").path)
    }

    static var pillowCases: [String] {
        sizes.flatMap { ["pillow_bilinear_rgb_\($0.0)x\($0.1)", "pillow_nearest_rgb_\($0.0)x\($0.1)"] }
            + ["pillow_bilinear_gray_40x60", "pillow_bilinear_gray_9x9"]
    }

    @Test(arguments: pillowCases)
    func matchesPillow(_ name: String) throws {
        let expected = try Self.fixture(name)
        let source = try Self.source(name.contains("gray") ? "pgm_p5_8bit.pgm" : "png_rgb8.png")
        let method: ResizeMethod = name.contains("nearest") ? .nearest : .pillowBilinear
        let out = try source.resized(width: expected.shape[1], height: expected.shape[0], method: method)
        #expect([out.height, out.width, out.channels] == expected.shape)
        expectEqualArrays(out.pixels8 ?? [], expected.values(as: UInt8.self), name)
    }

    /// TensorFlow-style bilinear, evaluated per output pixel from the documented formula.
    @Test(arguments: [(8, 5), (3, 3), (20, 17), (1, 4)])
    func bilinearFollowsHalfPixelFormula(_ size: (Int, Int)) throws {
        let source = try Self.source("png_rgb8.png").cropped(x: 10, y: 10, width: 11, height: 9)
        let (ow, oh) = size
        let out = try source.resized(width: ow, height: oh, method: .bilinear)
        func axis(_ o: Int, _ inSize: Int, _ outSize: Int) -> (Int, Int, Double) {
            let c = max(0, (Double(o) + 0.5) * Double(inSize) / Double(outSize) - 0.5)
            let i0 = min(Int(c.rounded(.down)), inSize - 1)
            return (i0, min(i0 + 1, inSize - 1), c - Double(i0))
        }
        for y in 0..<oh {
            let (y0, y1, fy) = axis(y, source.height, oh)
            for x in 0..<ow {
                let (x0, x1, fx) = axis(x, source.width, ow)
                for k in 0..<3 {
                    func p(_ xx: Int, _ yy: Int) -> Double { Double(source.sample(x: xx, y: yy, channel: k)) }
                    let v = (1 - fy) * ((1 - fx) * p(x0, y0) + fx * p(x1, y0)) + fy * ((1 - fx) * p(x0, y1) + fx * p(x1, y1))
                    #expect(abs(Double(out.sample(x: x, y: y, channel: k)) - v) <= 0.5 + 1e-9)
                }
            }
        }
    }

    @Test(arguments: ResizeMethod.allCases)
    func sameSizeIsIdentity(_ method: ResizeMethod) throws {
        let source = try Self.source("png_rgba16.png")
        #expect(try source.resized(width: source.width, height: source.height, method: method) == source)
    }

    @Test func constantImageStaysConstant() throws {
        let image = try Image(width: 9, height: 7, pixelLayout: .gray, pixels16: [UInt16](repeating: 40_000, count: 63))
        for method in ResizeMethod.allCases {
            let out = try image.resized(width: 4, height: 13, method: method)
            #expect(out.pixels16?.allSatisfy { $0 == 40_000 } == true, "\(method)")
        }
    }

    @Test func rejectsBadSizes() throws {
        let image = try Self.source("png_gray8.png")
        #expect(throws: ImageError.self) { try image.resized(width: 0, height: 3) }
        #expect(throws: ImageError.self) { try image.resized(width: Int.max, height: 3) }
    }
}

import Imaging
import Testing
import TestSupport
import TFLiteRuntime

/// Orientation, crop, colour conversion and tensor conversion against plain formulas and
/// Pillow-made expectations.
@Suite struct ImageOperationTests {
    /// A w x h image whose every sample encodes its position: distinct values everywhere.
    static func positional(_ w: Int, _ h: Int, _ layout: PixelLayout = .rgb) throws -> Image {
        let c = layout.channels
        var s: [UInt16] = []
        for y in 0..<h { for x in 0..<w { for k in 0..<c { s.append(UInt16(y * 1000 + x * 10 + k)) } } }
        return try Image(width: w, height: h, pixelLayout: layout, pixels16: s)
    }

    /// Where display pixel (ox, oy) comes from, from the EXIF 2.3 description of each value
    /// as a sequence of flips and rotations applied to the stored image.
    static func displayed(_ image: Image, _ o: Orientation) -> (Int, Int, (Int, Int) -> (Int, Int)) {
        let w = image.width, h = image.height
        switch o {
        case .up: return (w, h, { ($0, $1) })
        case .upMirrored: return (w, h, { (w - 1 - $0, $1) })
        case .down: return (w, h, { (w - 1 - $0, h - 1 - $1) })
        case .downMirrored: return (w, h, { ($0, h - 1 - $1) })
        // Transpose: rows become columns.
        case .leftMirrored: return (h, w, { ($1, $0) })
        // Rotate 90 clockwise: display column ox is stored row h-1-ox.
        case .right: return (h, w, { (ox, oy) in (oy, h - 1 - ox) })
        // Rotate 90 clockwise then mirror horizontally.
        case .rightMirrored: return (h, w, { (ox, oy) in (w - 1 - oy, h - 1 - ox) })
        // Rotate 90 counter-clockwise.
        case .left: return (h, w, { (ox, oy) in (w - 1 - oy, ox) })
        }
    }

    @Test(arguments: Orientation.allCases)
    func orientationMovesEveryPixel(_ o: Orientation) throws {
        let image = try Self.positional(7, 4)
        let out = image.applying(o)
        let (w, h, source) = Self.displayed(image, o)
        #expect(out.width == w && out.height == h)
        for oy in 0..<h {
            for ox in 0..<w {
                let (sx, sy) = source(ox, oy)
                for k in 0..<3 { #expect(out.sample(x: ox, y: oy, channel: k) == image.sample(x: sx, y: sy, channel: k)) }
            }
        }
    }

    @Test func rotationsCompose() throws {
        let image = try Self.positional(5, 3)
        #expect(image.applying(.right).applying(.right) == image.applying(.down))
        #expect(image.applying(.right).applying(.left) == image)
        #expect(image.applying(.upMirrored).applying(.upMirrored) == image)
        #expect(image.applying(.leftMirrored).applying(.leftMirrored) == image)
    }

    @Test func cropTakesTheRectangle() throws {
        let image = try Self.positional(10, 8, .grayAlpha)
        let crop = try image.cropped(x: 3, y: 2, width: 4, height: 5)
        #expect(crop.width == 4 && crop.height == 5)
        for y in 0..<5 { for x in 0..<4 { for k in 0..<2 {
            #expect(crop.sample(x: x, y: y, channel: k) == image.sample(x: x + 3, y: y + 2, channel: k))
        } } }
        #expect(throws: ImageError.self) { try image.cropped(x: 7, y: 0, width: 4, height: 1) }
        #expect(throws: ImageError.self) { try image.cropped(x: -1, y: 0, width: 2, height: 1) }
        #expect(throws: ImageError.self) { try image.cropped(x: 0, y: 0, width: 0, height: 1) }
        #expect(throws: ImageError.self) { try image.cropped(x: Int.max, y: 0, width: Int.max, height: 1) }
        let square = image.centerSquareCropped()
        #expect(square == (try image.cropped(x: 1, y: 0, width: 8, height: 8)))
    }

    @Test func grayConversionMatchesPillow() throws {
        let rgb = try ImageDecoder.decode(bytes: try Fixtures.corpusBytes("images/png_rgb8.png")).image
        let expected = try NPYArray(contentsOf: Fixtures.root.appendingPathComponent("Tests/Fixtures/imaging/pillow_convert_L.npy").path)
        let gray = rgb.converted(to: .gray)
        #expect([gray.height, gray.width, gray.channels] == expected.shape)
        expectEqualArrays(gray.pixels8 ?? [], expected.values(as: UInt8.self))
    }

    @Test func layoutConversionsKeepValues() throws {
        let gray = try Image(width: 2, height: 1, pixelLayout: .gray, pixels: [10, 200])
        #expect(gray.converted(to: .rgb).pixels8 == [10, 10, 10, 200, 200, 200])
        #expect(gray.converted(to: .grayAlpha).pixels8 == [10, 255, 200, 255])
        let rgba = try Image(width: 1, height: 1, pixelLayout: .rgba, pixels: [1, 2, 3, 4])
        #expect(rgba.converted(to: .rgb).pixels8 == [1, 2, 3])
        #expect(rgba.converted(to: .rgb).converted(to: .rgba).pixels8 == [1, 2, 3, 255])
        let wide = try Image(width: 1, height: 1, pixelLayout: .gray, pixels16: [65_535])
        #expect(wide.converted(to: .grayAlpha).pixels16 == [65_535, 65_535])
    }

    @Test func to8BitRoundsEveryValue() throws {
        let values = (0..<65_536).map { UInt16($0) }
        let image = try Image(width: 256, height: 256, pixelLayout: .gray, pixels16: values)
        let eight = try #require(image.to8Bit().pixels8)
        for v in stride(from: 0, to: 65_536, by: 97) {
            #expect(Int(eight[v]) == Int((Double(v) * 255 / 65_535).rounded()))
        }
    }

    @Test func tensorConversionsFollowTheirFormulas() throws {
        let pixels: [UInt8] = [0, 64, 128, 255, 1, 254]
        let image = try Image(width: 2, height: 1, pixelLayout: .rgb, pixels: pixels)
        #expect(image.uint8Tensor() == pixels)
        let mean: [Float] = [10, 20, 30], std: [Float] = [2, 4, 8]
        let f = try image.floatTensor(mean: mean, std: std)
        for i in 0..<6 { #expect(f[i] == (Float(pixels[i]) - mean[i % 3]) / std[i % 3]) }
        let r = try image.floatTensor(.signedUnitRange)
        for i in 0..<6 { #expect(r[i] == Float(pixels[i]) / 255 * 2 - 1) }
        let q = try image.int8Tensor(scale: 0.5, zeroPoint: -100)
        for i in 0..<6 {
            let want = max(-128, min(127, Int((Double(pixels[i]) / 0.5).rounded(.toNearestOrAwayFromZero)) - 100))
            #expect(Int(q[i]) == want)
        }
        let u = try image.quantizedUInt8Tensor(scale: 2, zeroPoint: 3)
        for i in 0..<6 { #expect(Int(u[i]) == min(255, Int((Double(pixels[i]) / 2).rounded(.toNearestOrAwayFromZero)) + 3)) }
        #expect(throws: ImageError.self) { try image.floatTensor(mean: [1, 2], std: [1]) }
        #expect(throws: ImageError.self) { try image.floatTensor(mean: [0], std: [0]) }
        #expect(throws: ImageError.self) { try image.int8Tensor(scale: 0, zeroPoint: 0) }
    }
}

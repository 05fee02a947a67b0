import TestSupport
import Imaging
import Testing

/// Encoding with `PNGEncoder` and decoding again gives back the exact pixels, for every
/// colour type and bit depth, with and without Adam7.
@Suite struct PNGRoundTripTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var layout: PixelLayout
        var bitDepth: Int
        var mode: PNGEncoder.ColorMode
        var width: Int, height: Int
        var testDescription: String { "\(layout) \(bitDepth)-bit \(mode) \(width)x\(height)" }
    }

    static var cases: [Case] {
        var all: [Case] = []
        for (w, h) in [(1, 1), (13, 9), (64, 37)] {
            for layout in PixelLayout.allCases {
                all.append(Case(layout: layout, bitDepth: 8, mode: .automatic, width: w, height: h))
                all.append(Case(layout: layout, bitDepth: 16, mode: .automatic, width: w, height: h))
            }
            for depth in [1, 2, 4] { all.append(Case(layout: .gray, bitDepth: depth, mode: .packedGray(bitDepth: depth), width: w, height: h)) }
            for colors in [2, 4, 16, 256] { all.append(Case(layout: .rgb, bitDepth: colors, mode: .palette, width: w, height: h)) }
            all.append(Case(layout: .rgba, bitDepth: 16, mode: .palette, width: w, height: h))
        }
        return all
    }

    /// Random pixels fitting the case: for palette cases `bitDepth` is the colour count.
    static func image(_ c: Case, seed: UInt64) throws -> Image {
        var rng = SplitMix64(seed: seed)
        let n = c.width * c.height * c.layout.channels
        switch c.mode {
        case .automatic where c.bitDepth == 16:
            return try Image(width: c.width, height: c.height, pixelLayout: c.layout,
                             pixels16: (0..<n).map { _ in UInt16(truncatingIfNeeded: rng.next()) })
        case .automatic:
            return try Image(width: c.width, height: c.height, pixelLayout: c.layout,
                             pixels: (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        case .packedGray(let depth):
            let step = 255 / ((1 << depth) - 1)
            return try Image(width: c.width, height: c.height, pixelLayout: .gray,
                             pixels: (0..<n).map { _ in UInt8(Int(rng.next() % UInt64(1 << depth)) * step) })
        case .palette:
            let colors = c.bitDepth
            let palette = (0..<colors).map { _ in (0..<c.layout.channels).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
            var pixels: [UInt8] = []
            for _ in 0..<(c.width * c.height) { pixels += palette[Int(rng.next() % UInt64(colors))] }
            return try Image(width: c.width, height: c.height, pixelLayout: c.layout, pixels: pixels)
        }
    }

    @Test(arguments: cases)
    func roundTripsExactly(_ c: Case) throws {
        let original = try Self.image(c, seed: UInt64(c.width * 1000 + c.bitDepth))
        for interlaced in [false, true] {
            let png = try PNGEncoder.encode(original, mode: c.mode, interlaced: interlaced)
            let decoded = try ImageDecoder.decode(bytes: png)
            #expect(decoded.format == .png)
            var image = decoded.image
            // A palette image without transparency decodes as RGB.
            if c.mode == .palette && c.layout != image.pixelLayout { image = image.converted(to: c.layout) }
            #expect(image == original, "interlaced: \(interlaced)")
        }
    }

    @Test func paletteRejectsTooManyColours() throws {
        let image = try Image(width: 300, height: 1, pixelLayout: .gray, pixels: (0..<300).map { UInt8($0 % 256) })
        #expect(throws: Never.self) { try PNGEncoder.encode(image, mode: .palette) }
        let many = try Image(width: 257, height: 1, pixelLayout: .rgb, pixels: (0..<257).flatMap { [UInt8($0 % 256), UInt8($0 / 256), 0] })
        #expect(throws: ImageError.self) { try PNGEncoder.encode(many, mode: .palette) }
    }

    @Test func packedGrayRejectsLossyValues() throws {
        let image = try Image(width: 2, height: 1, pixelLayout: .gray, pixels: [0, 100])
        #expect(throws: ImageError.self) { try PNGEncoder.encode(image, mode: .packedGray(bitDepth: 1)) }
    }
}

import Imaging
import Testing

@Suite struct DrawingTests {
    static func blank(_ layout: PixelLayout = .rgb, wide: Bool = false, width: Int = 20, height: Int = 10) throws -> Image {
        let n = width * height * layout.channels
        return wide ? try Image(width: width, height: height, pixelLayout: layout, pixels16: [UInt16](repeating: 0, count: n))
                    : try Image(width: width, height: height, pixelLayout: layout, pixels: [UInt8](repeating: 0, count: n))
    }

    @Test func rectangleOutlineCoversOnlyItsBorder() throws {
        var image = try Self.blank()
        image.drawRectangle(x: 2, y: 1, width: 8, height: 6, color: .red, lineWidth: 2)
        for y in 0..<10 {
            for x in 0..<20 {
                let inside = x >= 2 && x < 10 && y >= 1 && y < 7
                let hole = x >= 4 && x < 8 && y >= 3 && y < 5
                let painted = inside && !hole
                #expect(image.sample(x: x, y: y, channel: 0) == (painted ? 255 : 0), "(\(x), \(y))")
                #expect(image.sample(x: x, y: y, channel: 1) == 0)
            }
        }
    }

    @Test func drawingClipsAtTheEdges() throws {
        var image = try Self.blank(.gray, wide: true)
        image.fillRectangle(x: -5, y: -5, width: 8, height: 7, color: .white)
        image.fillRectangle(x: Int.max - 1, y: Int.min, width: Int.max, height: Int.max, color: .white)
        image.drawRectangle(x: 15, y: 5, width: Int.max, height: 100, color: .white)
        image.drawText("OVERFLOWING TEXT", x: 18, y: 8, color: .white, scale: 3)
        #expect(image.sample(x: 2, y: 1, channel: 0) == 65_535)
        #expect(image.sample(x: 3, y: 1, channel: 0) == 0)
    }

    @Test func textUsesTheFontGlyphs() throws {
        var image = try Self.blank()
        let width = image.drawText("I", x: 0, y: 0, color: .green)
        #expect(width == 6)
        // "I": a 3-pixel bar at the top and bottom, a 1-pixel stem in the middle column.
        let ink = (0..<7).map { y in (0..<5).map { x in image.sample(x: x, y: y, channel: 1) == 255 ? "#" : "." }.joined() }
        #expect(ink == [".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."])
        var scaled = try Self.blank(width: 12, height: 16)
        scaled.drawText("i", x: 0, y: 0, color: .green, scale: 2)
        for y in 0..<7 { for x in 0..<5 {
            #expect(scaled.sample(x: 2 * x + 1, y: 2 * y + 1, channel: 1) == image.sample(x: x, y: y, channel: 1))
        } }
    }

    @Test func labelBoxHoldsTheText() throws {
        var image = try Self.blank()
        let box = image.drawLabel("AB", x: 1, y: 1, textColor: .black, background: .yellow)
        #expect(box.width == 2 * 6 - 1 + 2 && box.height == 9)
        #expect(image.sample(x: 1, y: 1, channel: 0) == 255 && image.sample(x: 1, y: 1, channel: 2) == 0)
    }
}

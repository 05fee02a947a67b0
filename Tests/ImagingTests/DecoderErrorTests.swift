import Imaging
import Testing
import TestSupport

/// Hostile and damaged inputs give a thrown `ImageError` saying what is wrong.
@Suite struct DecoderErrorTests {
    static func corpus(_ name: String) throws -> [UInt8] { try Fixtures.corpusBytes("images/" + name) }

    static func message(_ bytes: [UInt8], limits: DecodeLimits = .default) -> String? {
        do {
            _ = try ImageDecoder.decode(bytes: bytes, limits: limits)
            return nil
        } catch {
            return error.description
        }
    }

    @Test(arguments: ["png_rgb8.png", "jpeg_baseline_420.jpg", "ppm_p6_8bit.ppm", "pgm_p2_ascii.pgm", "pbm_p4_binary.pbm"])
    func callerLimitsAreEnforced(_ file: String) throws {
        let bytes = try Self.corpus(file)
        let small = DecodeLimits(maxDimension: 64, maxPixels: 1 << 20, maxBytes: 1 << 20)
        #expect(throws: ImageError.self) { try ImageDecoder.decode(bytes: bytes, limits: small) }
        let fewPixels = DecodeLimits(maxDimension: 1000, maxPixels: 77 * 51 - 1, maxBytes: 1 << 20)
        #expect(Self.message(bytes, limits: fewPixels)?.contains("too large") == true)
        #expect(throws: Never.self) { try ImageDecoder.decode(bytes: bytes, limits: DecodeLimits(maxDimension: 77, maxPixels: 77 * 51, maxBytes: 77 * 51 * 8)) }
    }

    @Test func hugePNGIsRefusedBeforeAllocating() throws {
        let message = Self.message(try Self.corpus("broken_png_huge_dimensions.png"))
        #expect(message?.contains("100000x100000") == true, "\(message ?? "decoded")")
    }

    @Test(arguments: ["png_rgb8.png", "png_palette4_adam7.png", "jpeg_baseline_420.jpg", "jpeg_progressive_420.jpg",
                      "jpeg_restart_420.jpg", "ppm_p6_8bit.ppm", "pgm_p5_16bit.pgm", "pbm_p4_binary.pbm"])
    func everyTruncationThrows(_ file: String) throws {
        let bytes = try Self.corpus(file)
        // Every prefix: cheap for these small files, and it walks every parser state.
        for n in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) {
            #expect(throws: ImageError.self, "\(file) cut to \(n) bytes") { try ImageDecoder.decode(bytes: Array(bytes[0..<n])) }
        }
    }

    @Test func pngErrorsNameTheProblem() throws {
        let png = try Self.corpus("png_rgb8.png")
        #expect(Self.message(try Self.corpus("broken_png_bad_crc.png"))?.contains("CRC") == true)
        // An unknown critical chunk (upper-case first letter) before IEND must be refused...
        var critical = png
        let chunk: [UInt8] = [0, 0, 0, 0] + Array("ZZZZ".utf8)
        let crc = CRC32.checksum(Array("ZZZZ".utf8))
        critical.insert(contentsOf: chunk + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)],
                        at: critical.count - 12)
        #expect(Self.message(critical)?.contains("critical chunk ZZZZ") == true)
        // ...and an unknown ancillary one skipped.
        var ancillary = png
        let crc2 = CRC32.checksum(Array("zzZz".utf8))
        ancillary.insert(contentsOf: [0, 0, 0, 0] + Array("zzZz".utf8) + [UInt8(crc2 >> 24), UInt8(crc2 >> 16 & 0xFF), UInt8(crc2 >> 8 & 0xFF), UInt8(crc2 & 0xFF)],
                         at: ancillary.count - 12)
        #expect(try ImageDecoder.decode(bytes: ancillary).image == (try ImageDecoder.decode(bytes: png).image))
    }

    /// Removes the JPEG segment with marker `code`.
    static func removingSegment(_ jpeg: [UInt8], _ code: UInt8) -> [UInt8] {
        var i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if jpeg[i + 1] == code { return Array(jpeg[0..<i] + jpeg[(i + 2 + length)...]) }
            if jpeg[i + 1] == 0xDA { break }
            i += 2 + length
        }
        return jpeg
    }

    @Test func jpegErrorsNameTheProblem() throws {
        let jpeg = try Self.corpus("jpeg_baseline_420.jpg")
        #expect(Self.message(Self.removingSegment(jpeg, 0xC0))?.contains("before any SOF") == true)
        #expect(Self.message(Self.removingSegment(jpeg, 0xDB))?.contains("quantisation table") == true)
        #expect(Self.message(Self.removingSegment(jpeg, 0xC4))?.contains("Huffman table") == true)
        // An over-full DHT: 3 codes of length 1, taken from the length-3 count so the
        // symbol list keeps its size.
        var dht = jpeg
        if let at = (2..<(jpeg.count - 1)).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC4 }), jpeg[at + 7] >= 3 {
            dht[at + 5] += 3
            dht[at + 7] -= 3
            #expect(Self.message(dht)?.contains("Huffman table") == true)
        } else {
            Issue.record("no DHT in the sample JPEG")
        }
        #expect(Self.message(try Self.corpus("broken_jpeg_truncated.jpg"))?.contains("truncated") == true)
        #expect(Self.message([0xFF, 0xD8, 0xFF, 0xD9])?.contains("before any scan") == true)
        #expect(Self.message([0xFF, 0xD8, 0xFF, 0xC3, 0, 2])?.contains("lossless") == true)
    }

    @Test func pnmErrorsNameTheProblem() throws {
        #expect(Self.message(Array("P5 4 4 70000\n".utf8))?.contains("maxval") == true)
        #expect(Self.message(Array("P6 60000 60000 255\n".utf8) + [1, 2, 3])?.contains("too large") == true)
        #expect(Self.message(Array("P6 5000 5000 255\n".utf8) + [1, 2, 3])?.contains("promises") == true)
        #expect(Self.message(Array("P2 2 1 9\n3 10".utf8))?.contains("over maxval") == true)
        #expect(Self.message(Array("P1 2 1\n0 2".utf8))?.contains("not 0 or 1") == true)
        #expect(Self.message(try Self.corpus("broken_ppm_short.ppm"))?.contains("PNM") == true)
        #expect(Self.message([1, 2, 3, 4]) == ImageError.unrecognizedFormat.description)
    }

    @Test func pnmRescalesOtherMaxvals() throws {
        let image = try ImageDecoder.decode(bytes: Array("P2 3 1 4\n0 2 4".utf8)).image
        #expect(image.pixels8 == [0, 128, 255])
        let wide = try ImageDecoder.decode(bytes: Array("P5 3 1 1000\n".utf8) + [0, 0, 0x01, 0x2C, 0x03, 0xE8]).image
        #expect(wide.pixels16 == [0, UInt16((300 * 65_535 + 500) / 1000), 65_535])
    }
}

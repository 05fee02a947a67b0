import Imaging
import Testing
import TestSupport

/// Every image of the corpus decodes to LiteRT-corpus pixels within its tolerance, and every
/// deliberately broken file fails with a typed error.
@Suite struct CorpusDecodeTests {
    @Test func corpusIsPresent() {
        #expect(ImageCorpusEntry.all.count >= 40)
        #expect(!ImageCorpusEntry.broken.isEmpty)
    }

    @Test(arguments: ImageCorpusEntry.decodable)
    func decodesWithinTolerance(_ file: String) throws {
        let entry = try #require(ImageCorpusEntry.named(file))
        let decoded = try ImageDecoder.decode(bytes: try entry.bytes())
        let expected = try ExpectedPixels(corpusImage: try #require(entry.npy))
        let image = decoded.image
        #expect([image.height, image.width, image.channels] == expected.shape)
        #expect(image.bitDepth == (expected.dtype == .uInt16 ? 16 : 8))
        let tolerance = entry.tolerance?.kind == "max_abs_diff" ? (entry.tolerance?.value ?? 0) : 0
        let diff = image.maxAbsDifference(expected.values)
        #expect(diff <= tolerance, "\(file): max |decoded - expected| = \(diff), tolerance \(tolerance)")
    }

    @Test(arguments: ImageCorpusEntry.all.filter { $0.npyOriented != nil }.map(\.file))
    func exifOrientationMatchesExifTranspose(_ file: String) throws {
        let entry = try #require(ImageCorpusEntry.named(file))
        let decoded = try ImageDecoder.decode(bytes: try entry.bytes())
        #expect(decoded.orientation.rawValue == entry.exifOrientation)
        let expected = try ExpectedPixels(corpusImage: try #require(entry.npyOriented))
        let oriented = decoded.orientedImage
        #expect([oriented.height, oriented.width, oriented.channels] == expected.shape)
        let tolerance = entry.tolerance?.value ?? 0
        #expect(oriented.maxAbsDifference(expected.values) <= tolerance)
    }

    @Test(arguments: ImageCorpusEntry.broken)
    func brokenFileThrows(_ file: String) throws {
        let entry = try #require(ImageCorpusEntry.named(file))
        let bytes = try entry.bytes()
        #expect(throws: ImageError.self, "\(file) must not decode") {
            _ = try ImageDecoder.decode(bytes: bytes)
        }
        do {
            _ = try ImageDecoder.decode(bytes: bytes)
        } catch {
            // The message names the format.
            #expect(String(describing: error).contains(entry.format == "PPM" ? "PNM" : entry.format) || String(describing: error).contains("too large"),
                    "\(file): \(error)")
        }
    }
}

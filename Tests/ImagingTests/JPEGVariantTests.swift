import Foundation
import Imaging
import Testing
import TestSupport
import TFLiteRuntime

/// JPEG variants beyond the corpus (progressive 4:4:4 and 4:2:2 with restart intervals,
/// progressive grayscale, 1x1 and tiny odd sizes), against Pillow's decoding of them.
/// The corpus tolerance (3) applies; our decoder reproduces libjpeg's arithmetic exactly.
@Suite struct JPEGVariantTests {
    static let names = ["jpeg_progressive_444_33x17", "jpeg_progressive_422_restart_31x19", "jpeg_progressive_gray_21x13",
                        "jpeg_420_1x1", "jpeg_420_3x2", "jpeg_420_q20_17x9"]

    @Test(arguments: names)
    func matchesPillow(_ name: String) throws {
        let folder = Fixtures.root.appendingPathComponent("Tests/Fixtures/imaging")
        let bytes = try FileIO.read(folder.appendingPathComponent(name + ".jpg").path)
        let expected = try NPYArray(contentsOf: folder.appendingPathComponent(name + ".npy").path)
        let image = try ImageDecoder.decode(bytes: bytes).image
        #expect([image.height, image.width, image.channels] == expected.shape)
        let diff = image.maxAbsDifference(expected.values(as: UInt8.self).map(Int.init))
        #expect(diff <= 3, "max |diff| \(diff)")
    }
}

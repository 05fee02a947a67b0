import Foundation
import Imaging
import Testing
import TestSupport
import TFLiteRuntime

/// The corpus photo cases were preprocessed with Pillow (crop, `resize(BILINEAR)`, scaling,
/// quantisation). Rebuilding each input from the photo must give the same tensor.
@Suite struct ModelInputTests {
    enum Scaling: Sendable {
        case raw
        case float(PixelNormalization)
        case quantized(PixelNormalization)
    }

    struct PhotoCase: Sendable, CustomTestStringConvertible {
        var name: String
        var photo: String
        var centerCrop: Bool
        var size: Int
        var scaling: Scaling
        var testDescription: String { name }
    }

    /// Preprocessing as each case's notes in manifest.json describe it.
    static let cases: [PhotoCase] = [
        PhotoCase(name: "efficientnet_lite0__chelsea", photo: "chelsea", centerCrop: true, size: 224, scaling: .raw),
        PhotoCase(name: "efficientnet_lite0__coffee", photo: "coffee", centerCrop: true, size: 224, scaling: .raw),
        PhotoCase(name: "mobilenet_v2_float__chelsea", photo: "chelsea", centerCrop: true, size: 224, scaling: .float(.signedUnitRange)),
        PhotoCase(name: "mobilenet_v1_float__coffee", photo: "coffee", centerCrop: true, size: 128, scaling: .float(.signedUnitRange)),
        PhotoCase(name: "mobilenet_v2_int8__chelsea", photo: "chelsea", centerCrop: true, size: 224, scaling: .quantized(.signedUnitRange)),
        PhotoCase(name: "mobilenet_v2_uint8io__chelsea", photo: "chelsea", centerCrop: true, size: 224, scaling: .quantized(.signedUnitRange)),
        PhotoCase(name: "face_detection_short_range__astronaut", photo: "astronaut", centerCrop: false, size: 128, scaling: .float(.signedUnitRange)),
        PhotoCase(name: "face_detection_full_range_sparse__astronaut", photo: "astronaut", centerCrop: false, size: 192, scaling: .float(.signedUnitRange)),
        PhotoCase(name: "palm_detection_lite__astronaut", photo: "astronaut", centerCrop: false, size: 192, scaling: .float(.unitRange)),
        PhotoCase(name: "hand_landmark_lite__astronaut", photo: "astronaut", centerCrop: false, size: 224, scaling: .float(.unitRange)),
        PhotoCase(name: "selfie_segmentation__astronaut", photo: "astronaut", centerCrop: false, size: 256, scaling: .float(.unitRange)),
        PhotoCase(name: "ssd_detector_float__astronaut", photo: "astronaut", centerCrop: false, size: 320, scaling: .raw),
        PhotoCase(name: "ssd_detector_int8__astronaut", photo: "astronaut", centerCrop: false, size: 320, scaling: .quantized(.signedUnitRange)),
    ]

    /// The case's first input as listed in manifest.json, with its quantisation.
    struct ManifestInput: Decodable {
        struct Quantization: Decodable { var scale: Float; var zero_point: Int }
        var file: String
        var dtype: String
        var quantization: Quantization?
    }

    static func manifestInput(_ caseName: String) throws -> ManifestInput {
        struct Entry: Decodable { var `case`: String; var inputs: [ManifestInput] }
        let data = try Data(contentsOf: Fixtures.corpusFile("manifest.json"))
        let entries = try JSONDecoder().decode([Entry].self, from: data)
        return try #require(entries.first { $0.case == caseName }?.inputs.first)
    }

    @Test(arguments: cases)
    func reproducesCorpusInput(_ c: PhotoCase) throws {
        let input = try Self.manifestInput(c.name)
        let expected = try NPYArray(contentsOf: Fixtures.corpusFile(input.file).path)
        #expect(expected.shape == [1, c.size, c.size, 3])

        let path = Fixtures.models.appendingPathComponent("images/\(c.photo).png").path
        var image = try ImageDecoder.decode(bytes: try FileIO.read(path)).image.converted(to: .rgb)
        if c.centerCrop { image = image.centerSquareCropped() }
        image = try image.resized(width: c.size, height: c.size, method: .pillowBilinear)

        switch c.scaling {
        case .raw:
            expectEqualArrays(image.uint8Tensor(), expected.values(as: UInt8.self))
        case .float(let normalization):
            let got = try image.floatTensor(normalization)
            let want = expected.values(as: Float.self)
            #expect(got.count == want.count)
            let mismatches = zip(got, want).filter { $0 != $1 }.count
            #expect(mismatches == 0, "\(mismatches) float values differ")
        case .quantized(let normalization):
            let q = try #require(input.quantization)
            if input.dtype == "int8" {
                let got = try image.int8Tensor(scale: q.scale, zeroPoint: q.zero_point, normalization: normalization)
                expectEqualArrays(got, expected.values(as: Int8.self))
            } else {
                let got = try image.quantizedUInt8Tensor(scale: q.scale, zeroPoint: q.zero_point, normalization: normalization)
                expectEqualArrays(got, expected.values(as: UInt8.self))
            }
        }
    }
}

import Imaging
import Testing
import TFLiteRuntime
@testable import TFLiteTasks

/// MediaPipe's image-to-tensor resampling and the segmenter's mask resize against the OpenCV
/// calls MediaPipe makes (`Tests/Fixtures/tasks/mediapipe/resampling.json`).
@Suite struct MediaPipeResamplingTests {
    static let goldens = try? MediaPipeGoldens.load(MediaPipeGoldens.Resampling.self, "resampling.json")

    @Test func goldensAreThere() throws {
        let g = try #require(Self.goldens)
        #expect(g.warps.count == 4 && g.mask_resizes.count == 3)
    }

    /// The same fixed-point arithmetic as OpenCV's warpPerspective: bit for bit, but for
    /// sample points that fall exactly halfway between two 1/32-pixel positions. OpenCV
    /// computes the points from a perspective matrix it solves and inverts, whose last-bit
    /// errors tip such ties one way or the other; here they round to even. That happens only
    /// when the scale has few binary digits and the region is offset by a fraction (the
    /// 77x51 image upscaled into 128x128: 0.16% of the samples, each off by one level); the
    /// other cases are exact.
    @Test(arguments: goldens?.warps.map(\.name) ?? [])
    func warpMatchesOpenCV(_ name: String) throws {
        let warp = try #require(Self.goldens?.warps.first { $0.name == name })
        let image = try MediaPipeGoldens.image(warp.tiles)
        let input = Tensor(name: "input", dataType: .uInt8, shape: [1, warp.height, warp.width, 3], data: [], quantizationParameters: nil)
        var pre = try ImagePreprocessor(tensor: input, normalization: nil)
        pre.mediaPipeFit = warp.keep_aspect_ratio ? .letterbox : .stretch
        let got = try pre.pixels(for: VisionImage(image: image))
        let want = try #require(try MediaPipeGoldens.png(warp.file).pixels8)
        #expect(got.count == want.count)
        let differing = zip(got, want).filter { $0 != $1 }.count
        let largest = zip(got, want).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= 1 && differing * 200 <= want.count, "\(name): \(differing) of \(want.count) samples differ, by up to \(largest)")
    }

    @Test func letterboxPadsTheShortSideAboutTheCentre() {
        // MediaPipe's PadRoi: a 320x512 image in a square input is widened to 512, centred.
        let box = Letterbox(imageWidth: 320, imageHeight: 512, inputWidth: 128, inputHeight: 128)
        #expect(box.roiX == -96 && box.roiY == 0 && box.roiWidth == 512 && box.roiHeight == 512)
        let corner = box.imagePoint(normalizedX: 0, normalizedY: 1)
        #expect(corner.x == -96 && corner.y == 512)
    }

    @Test(arguments: 0..<3)
    func maskResizeMatchesOpenCV(_ index: Int) throws {
        let r = try #require(Self.goldens?.mask_resizes[index])
        let mask = try ConfidenceMask(width: r.width, height: r.height, values: r.values)
        let resized = try mask.resized(width: r.out_width, height: r.out_height)
        #expect(resized.width == r.out_width && resized.height == r.out_height)
        for (a, b) in zip(resized.values, r.out_values) { #expect(abs(a - b) <= 1e-6, "\(a) vs \(b)") }
    }

    @Test func maskSizesAreChecked() throws {
        #expect(throws: TaskError.self) { try ConfidenceMask(width: 2, height: 2, values: [0, 1, 0]) }
        #expect(throws: TaskError.self) { try BinaryMask(width: 0, height: 1, values: []) }
        let mask = try ConfidenceMask(width: 1, height: 1, values: [0.5])
        #expect(throws: TaskError.self) { try mask.resized(width: 0, height: 4) }
    }
}

import Testing
@testable import TFLiteTasks

/// The anchor generator against the anchors MediaPipe's SsdAnchorsCalculator produced.
@Suite struct SSDAnchorGeneratorTests {
    static let goldens = (try? MediaPipeGoldens.load(MediaPipeGoldens.Anchors.self, "anchors.json"))?.configs ?? []

    static func generator(_ o: MediaPipeGoldens.AnchorConfig.Options) -> SSDAnchorGenerator {
        var g = SSDAnchorGenerator(inputWidth: o.input_size_width, inputHeight: o.input_size_height,
                                   minScale: o.min_scale, maxScale: o.max_scale, strides: o.strides)
        g.anchorOffsetX = o.anchor_offset_x
        g.anchorOffsetY = o.anchor_offset_y
        g.aspectRatios = o.aspect_ratios
        g.fixedAnchorSize = o.fixed_anchor_size ?? false
        g.interpolatedScaleAspectRatio = o.interpolated_scale_aspect_ratio ?? 0
        g.reduceBoxesInLowestLayer = o.reduce_boxes_in_lowest_layer ?? false
        return g
    }

    @Test func goldensAreThere() {
        #expect(Self.goldens.map(\.name) == ["face_short_range", "one_stride", "ssd_sized_anchors"])
    }

    @Test(arguments: goldens.map(\.name))
    func matchesMediaPipe(_ name: String) throws {
        let golden = try #require(Self.goldens.first { $0.name == name })
        let anchors = try Self.generator(golden.options).anchors()
        #expect(anchors.count == golden.anchors.count)
        for (got, want) in zip(anchors, golden.anchors) {
            // Same float arithmetic as the calculator; the square roots may round one ulp apart.
            let values = [got.xCenter, got.yCenter, got.width, got.height]
            for k in 0..<4 { #expect(abs(values[k] - want[k]) <= 1e-6, "\(name): \(values) vs \(want)") }
        }
    }

    @Test func shortRangePresetIsMediaPipesConfiguration() throws {
        let golden = try #require(Self.goldens.first { $0.name == "face_short_range" })
        #expect(SSDAnchorGenerator.faceShortRange() == Self.generator(golden.options))
        // The model's 896 boxes: one per anchor.
        #expect(try SSDAnchorGenerator.faceShortRange().anchors().count == 896)
    }

    @Test func optionsThatDescribeNoGridThrow() {
        var noLayers = SSDAnchorGenerator.faceShortRange()
        noLayers.strides = []
        var zeroStride = SSDAnchorGenerator.faceShortRange()
        zeroStride.strides = [8, 0]
        var badRatio = SSDAnchorGenerator.faceShortRange()
        badRatio.aspectRatios = [-1]
        var noInput = SSDAnchorGenerator.faceShortRange(inputWidth: 0)
        noInput.strides = [8]
        for g in [noLayers, zeroStride, badRatio, noInput] {
            #expect(throws: TaskError.self) { try g.anchors() }
        }
    }
}

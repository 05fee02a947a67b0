/// Generates SSD anchors the way MediaPipe's `SsdAnchorsCalculator` does (its grid
/// generation; not the multi-scale variant), so that a model trained with MediaPipe's anchors
/// decodes here as it does there.
///
/// Layers are visited in order; consecutive layers with the same stride share one feature
/// map, whose every cell gets the anchors of all those layers (per layer: one per aspect
/// ratio at the layer's scale, plus one at the geometric mean of this and the next layer's
/// scale when ``interpolatedScaleAspectRatio`` is positive). Cells are visited row by row,
/// anchor centres at `(x + offsetX) / featureMapWidth`, `(y + offsetY) / featureMapHeight`.
public struct SSDAnchorGenerator: Sendable, Equatable {
    /// The model input's size in pixels.
    public var inputWidth: Int, inputHeight: Int
    /// The smallest and largest anchor scale, spread linearly over the layers.
    public var minScale: Float, maxScale: Float
    /// The anchor centre's offset inside its feature-map cell (0.5: the cell's centre).
    public var anchorOffsetX: Float = 0.5, anchorOffsetY: Float = 0.5
    /// Each layer's stride in input pixels (the feature map is `ceil(input / stride)` cells).
    public var strides: [Int]
    /// The aspect ratios of each layer's anchors.
    public var aspectRatios: [Float] = [1]
    /// When positive, each layer gets one more anchor of this aspect ratio, at the geometric
    /// mean of its scale and the next layer's (1 after the last layer).
    public var interpolatedScaleAspectRatio: Float = 1
    /// Give every anchor width and height 1 (the box regression then carries the size).
    public var fixedAnchorSize = false
    /// The first layer gets MediaPipe's three predefined anchors (scale 0.1 at ratio 1, and
    /// the layer scale at ratios 2 and 0.5) instead of `aspectRatios`.
    public var reduceBoxesInLowestLayer = false

    /// A generator; see the properties for the defaults of the others.
    public init(inputWidth: Int, inputHeight: Int, minScale: Float, maxScale: Float, strides: [Int]) {
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.minScale = minScale
        self.maxScale = maxScale
        self.strides = strides
    }

    /// The anchors of MediaPipe's BlazeFace short-range face detector (the options of its
    /// `face_detection_short_range` graph and `FaceDetectorGraph`): four layers of strides
    /// 8, 16, 16, 16, scales 0.1484375 to 0.75, aspect ratio 1 plus the interpolated one,
    /// fixed anchor size. 896 anchors for the model's 128 x 128 input.
    public static func faceShortRange(inputWidth: Int = 128, inputHeight: Int = 128) -> SSDAnchorGenerator {
        var g = SSDAnchorGenerator(inputWidth: inputWidth, inputHeight: inputHeight,
                                   minScale: 0.1484375, maxScale: 0.75, strides: [8, 16, 16, 16])
        g.aspectRatios = [1]
        g.interpolatedScaleAspectRatio = 1
        g.fixedAnchorSize = true
        return g
    }

    /// The anchors, in the order the model's outputs list their boxes. Throws when the
    /// options cannot describe a grid (no layers, a non-positive stride or input size, no
    /// aspect ratio, a non-positive ratio).
    public func anchors() throws(TaskError) -> [SSDAnchor] {
        guard !strides.isEmpty, strides.allSatisfy({ $0 > 0 }), inputWidth > 0, inputHeight > 0 else {
            throw .invalidFormat("SSD anchors need at least one positive stride and a positive input size (strides \(strides), input \(inputWidth)x\(inputHeight))")
        }
        guard !aspectRatios.isEmpty || reduceBoxesInLowestLayer, aspectRatios.allSatisfy({ $0 > 0 }) else {
            throw .invalidFormat("SSD anchors need positive aspect ratios, got \(aspectRatios)")
        }
        var anchors: [SSDAnchor] = []
        var layer = 0
        while layer < strides.count {
            var ratios: [Float] = [], scales: [Float] = []
            var last = layer
            // Layers of one stride share a feature map: their anchors are merged per cell.
            while last < strides.count && strides[last] == strides[layer] {
                let scale = Self.scale(minScale, maxScale, last, strides.count)
                if last == 0 && reduceBoxesInLowestLayer {
                    ratios += [1, 2, 0.5]
                    scales += [0.1, scale, scale]
                } else {
                    for ratio in aspectRatios {
                        ratios.append(ratio)
                        scales.append(scale)
                    }
                    if interpolatedScaleAspectRatio > 0 {
                        let next = last == strides.count - 1 ? 1 : Self.scale(minScale, maxScale, last + 1, strides.count)
                        scales.append((scale * next).squareRoot())
                        ratios.append(interpolatedScaleAspectRatio)
                    }
                }
                last += 1
            }
            let sizes = zip(ratios, scales).map { ratio, scale in
                (width: scale * ratio.squareRoot(), height: scale / ratio.squareRoot())
            }
            let stride = Float(strides[layer])
            let mapHeight = Int((Float(inputHeight) / stride).rounded(.up))
            let mapWidth = Int((Float(inputWidth) / stride).rounded(.up))
            for y in 0..<mapHeight {
                for x in 0..<mapWidth {
                    for size in sizes {
                        anchors.append(SSDAnchor(
                            xCenter: (Float(x) + anchorOffsetX) / Float(mapWidth),
                            yCenter: (Float(y) + anchorOffsetY) / Float(mapHeight),
                            width: fixedAnchorSize ? 1 : size.width,
                            height: fixedAnchorSize ? 1 : size.height))
                    }
                }
            }
            layer = last
        }
        return anchors
    }

    /// MediaPipe's `CalculateScale`: the layer's scale, linear from `minScale` to `maxScale`.
    private static func scale(_ minScale: Float, _ maxScale: Float, _ index: Int, _ count: Int) -> Float {
        if count == 1 { return (minScale + maxScale) * 0.5 }
        return Float(Double(minScale) + Double(maxScale - minScale) * Double(index) / Double(Float(count) - 1))
    }
}

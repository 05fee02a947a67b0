/// The options of TFLite's `TFLite_Detection_PostProcess` custom op, as the SSD exporters
/// write them into the op's FlexBuffer options.
public struct DetectionPostProcessParams: Sendable, Equatable {
    /// How many detections (anchors) the op reports at most.
    public var maxDetections: Int
    /// Fast NMS: how many classes each kept anchor reports (rows per detection).
    public var maxClassesPerDetection: Int
    /// Regular NMS: how many boxes each class keeps before the classes are merged.
    public var detectionsPerClass: Int
    /// Scores below this are never selected.
    public var scoreThreshold: Float
    /// A candidate overlapping a kept box by more than this IoU is suppressed; in (0, 1].
    public var iouThreshold: Float
    /// Classes without the background column.
    public var numClasses: Int
    /// Per-class NMS (true) or the fast class-agnostic NMS on each anchor's best score (false).
    public var useRegularNMS: Bool
    /// Divisors of the encoded centre y/x and the log-scaled height/width.
    public var yScale: Float, xScale: Float, hScale: Float, wScale: Float

    /// Creates a parameter set; `detectionsPerClass` defaults to 100 as in TFLite.
    public init(maxDetections: Int, maxClassesPerDetection: Int, detectionsPerClass: Int = 100,
                scoreThreshold: Float, iouThreshold: Float, numClasses: Int, useRegularNMS: Bool,
                yScale: Float, xScale: Float, hScale: Float, wScale: Float) {
        self.maxDetections = maxDetections
        self.maxClassesPerDetection = maxClassesPerDetection
        self.detectionsPerClass = detectionsPerClass
        self.scoreThreshold = scoreThreshold
        self.iouThreshold = iouThreshold
        self.numClasses = numClasses
        self.useRegularNMS = useRegularNMS
        self.yScale = yScale
        self.xScale = xScale
        self.hScale = hScale
        self.wScale = wScale
    }

    /// Rows of the boxes/classes/scores outputs: `maxDetections * maxClassesPerDetection`.
    public var outputRows: Int { maxDetections * maxClassesPerDetection }
}

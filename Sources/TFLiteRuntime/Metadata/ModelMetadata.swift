/// The TFLite model metadata (`TFLITE_METADATA` buffer, schema `metadata_schema.fbs`, file
/// identifier `M001`): what a model's inputs and outputs mean and how to pre- and
/// post-process them. Only the tables the task APIs use are read.
public struct ModelMetadata: Sendable, Equatable {
    /// The model's name.
    public var name: String?
    /// A free-text description.
    public var description: String?
    /// The model's version string.
    public var version: String?
    /// The author.
    public var author: String?
    /// The license text.
    public var license: String?
    /// Metadata of the main subgraph's input tensors, in `SubGraph.inputs` order.
    public var inputs: [TensorMetadata]
    /// Metadata of the main subgraph's output tensors, in `SubGraph.outputs` order.
    public var outputs: [TensorMetadata]
    /// Files associated with the whole model.
    public var associatedFiles: [AssociatedFile]

    /// Creates metadata by hand (the parser fills these from the buffer).
    public init(name: String? = nil, description: String? = nil, version: String? = nil, author: String? = nil,
                license: String? = nil, inputs: [TensorMetadata] = [], outputs: [TensorMetadata] = [],
                associatedFiles: [AssociatedFile] = []) {
        self.name = name
        self.description = description
        self.version = version
        self.author = author
        self.license = license
        self.inputs = inputs
        self.outputs = outputs
        self.associatedFiles = associatedFiles
    }
}

/// Metadata of one input or output tensor.
public struct TensorMetadata: Sendable, Equatable {
    /// The tensor's name in the metadata.
    public var name: String?
    /// A free-text description.
    public var description: String?
    /// Image properties, for image tensors.
    public var image: ImageProperties?
    /// Bounding-box layout, for box tensors.
    public var boundingBox: BoundingBoxProperties?
    /// Per-channel normalisation `(x - mean) / std`, from a NormalizationOptions process unit.
    public var normalization: Normalization?
    /// The recommended score threshold, from a ScoreThresholdingOptions process unit.
    public var scoreThreshold: Float?
    /// Per-channel minimum and maximum values (the Stats table).
    public var statsMin: [Float], statsMax: [Float]
    /// Files associated with this tensor (label files).
    public var associatedFiles: [AssociatedFile]

    /// Creates tensor metadata by hand.
    public init(name: String? = nil, description: String? = nil, image: ImageProperties? = nil,
                boundingBox: BoundingBoxProperties? = nil, normalization: Normalization? = nil,
                scoreThreshold: Float? = nil, statsMin: [Float] = [], statsMax: [Float] = [],
                associatedFiles: [AssociatedFile] = []) {
        self.name = name
        self.description = description
        self.image = image
        self.boundingBox = boundingBox
        self.normalization = normalization
        self.scoreThreshold = scoreThreshold
        (self.statsMin, self.statsMax) = (statsMin, statsMax)
        self.associatedFiles = associatedFiles
    }

    /// The first `TENSOR_AXIS_LABELS` file, preferring `locale` when given.
    public func axisLabelsFile(locale: String? = nil) -> AssociatedFile? {
        let labels = associatedFiles.filter { $0.type == .tensorAxisLabels }
        if let locale, let match = labels.first(where: { $0.locale == locale }) { return match }
        return labels.first
    }
}

/// Per-channel normalisation parameters; a single value applies to every channel.
public struct Normalization: Sendable, Equatable {
    /// Means subtracted from each channel.
    public var mean: [Float]
    /// Standard deviations each channel is divided by.
    public var std: [Float]

    /// Creates normalisation parameters.
    public init(mean: [Float], std: [Float]) {
        self.mean = mean
        self.std = std
    }
}

/// Properties of an image tensor.
public struct ImageProperties: Sendable, Equatable {
    /// The colour space: 0 unknown, 1 RGB, 2 grayscale.
    public var colorSpace: Int
    /// The default width and height for dynamic shapes, when given.
    public var defaultWidth: Int?, defaultHeight: Int?

    /// Creates image properties.
    public init(colorSpace: Int, defaultWidth: Int? = nil, defaultHeight: Int? = nil) {
        self.colorSpace = colorSpace
        self.defaultWidth = defaultWidth
        self.defaultHeight = defaultHeight
    }
}

/// How a box tensor stores its four values.
public struct BoundingBoxProperties: Sendable, Equatable {
    /// The positions of the type's default elements (e.g. `[1, 0, 3, 2]` for TFLite's
    /// `ymin, xmin, ymax, xmax` boxes with the BOUNDARIES type); empty for the default order.
    public var index: [Int]
    /// 0 unknown, 1 BOUNDARIES (left, top, right, bottom), 2 UPPER_LEFT, 3 CENTER.
    public var type: Int
    /// 0 RATIO (0...1), 1 PIXEL.
    public var coordinateType: Int

    /// Creates box properties.
    public init(index: [Int], type: Int, coordinateType: Int) {
        self.index = index
        self.type = type
        self.coordinateType = coordinateType
    }
}

/// A file packed with the model (in the zip archive appended to the `.tflite` file).
public struct AssociatedFile: Sendable, Equatable {
    /// What a file holds.
    public enum FileType: Int, Sendable, Equatable {
        case unknown = 0, descriptions = 1, tensorAxisLabels = 2, tensorValueLabels = 3
        case tensorAxisScoreCalibration = 4, vocabulary = 5
    }

    /// The file's name inside the archive.
    public var name: String
    /// A free-text description.
    public var description: String?
    /// The file's role.
    public var type: FileType
    /// The locale of a label file, e.g. `en`.
    public var locale: String?

    /// Creates an associated-file entry.
    public init(name: String, description: String? = nil, type: FileType, locale: String? = nil) {
        self.name = name
        self.description = description
        self.type = type
        self.locale = locale
    }
}

import FlatBuffers

/// A metadata buffer that cannot be read.
public struct MetadataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, and where.
    public let message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}

extension ModelMetadata {
    /// Parses a `TFLITE_METADATA` buffer (all reads bounds-checked).
    public init(bytes: UnsafeRawBufferPointer) throws(MetadataError) {
        do {
            let buffer = try FlatBuffer(bytes: bytes)
            try buffer.expectIdentifier("M001")
            let root = try buffer.root()
            self.init(name: try root.string(0, "ModelMetadata.name"),
                      description: try root.string(1, "ModelMetadata.description"),
                      version: try root.string(2, "ModelMetadata.version"),
                      author: try root.string(4, "ModelMetadata.author"),
                      license: try root.string(5, "ModelMetadata.license"),
                      associatedFiles: try root.tables(6, "ModelMetadata.associated_files").map(Self.file))
            if let main = try root.tables(3, "ModelMetadata.subgraph_metadata").first {
                inputs = try main.tables(2, "SubGraphMetadata.input_tensor_metadata").map(Self.tensor)
                outputs = try main.tables(3, "SubGraphMetadata.output_tensor_metadata").map(Self.tensor)
            }
        } catch {
            throw MetadataError("TFLITE_METADATA: \(error)")
        }
    }

    /// The metadata of `model`, or nil when it has no `TFLITE_METADATA` buffer.
    public init?(model: Model) throws(MetadataError) {
        guard let bytes = model.metadataBuffer(named: "TFLITE_METADATA") else { return nil }
        try self.init(bytes: bytes)
    }

    private static func file(_ t: Table) throws(FlatBufferError) -> AssociatedFile {
        let type = try t.integer(2, default: Int8(0), "AssociatedFile.type")
        return AssociatedFile(name: try t.string(0, "AssociatedFile.name") ?? "",
                              description: try t.string(1, "AssociatedFile.description"),
                              type: AssociatedFile.FileType(rawValue: Int(type)) ?? .unknown,
                              locale: try t.string(3, "AssociatedFile.locale"))
    }

    private static func tensor(_ t: Table) throws(FlatBufferError) -> TensorMetadata {
        var m = TensorMetadata(name: try t.string(0, "TensorMetadata.name"),
                               description: try t.string(1, "TensorMetadata.description"),
                               associatedFiles: try t.tables(6, "TensorMetadata.associated_files").map(file))
        if let content = try t.table(3, "TensorMetadata.content") {
            let kind = try content.integer(0, default: UInt8(0), "Content.content_properties_type")
            if let props = try content.table(1, "Content.content_properties") {
                switch kind {
                case 2:
                    let size = try props.table(1, "ImageProperties.default_size")
                    m.image = ImageProperties(
                        colorSpace: Int(try props.integer(0, default: Int8(0), "ImageProperties.color_space")),
                        defaultWidth: try size.map { (s) throws(FlatBufferError) in Int(try s.integer(0, default: UInt32(0), "ImageSize.width")) },
                        defaultHeight: try size.map { (s) throws(FlatBufferError) in Int(try s.integer(1, default: UInt32(0), "ImageSize.height")) })
                case 3:
                    m.boundingBox = BoundingBoxProperties(
                        index: try props.integers(0, of: UInt32.self, "BoundingBoxProperties.index").map { Int($0) },
                        type: Int(try props.integer(1, default: Int8(0), "BoundingBoxProperties.type")),
                        coordinateType: Int(try props.integer(2, default: Int8(0), "BoundingBoxProperties.coordinate_type")))
                default: break
                }
            }
        }
        for unit in try t.tables(4, "TensorMetadata.process_units") {
            let kind = try unit.integer(0, default: UInt8(0), "ProcessUnit.options_type")
            guard let options = try unit.table(1, "ProcessUnit.options") else { continue }
            switch kind {
            case 1:
                m.normalization = Normalization(mean: try options.floats(0, "NormalizationOptions.mean"),
                                                std: try options.floats(1, "NormalizationOptions.std"))
            case 3:
                m.scoreThreshold = try options.float(0, default: 0, "ScoreThresholdingOptions.global_score_threshold")
            default: break
            }
        }
        if let stats = try t.table(5, "TensorMetadata.stats") {
            m.statsMax = try stats.floats(0, "Stats.max")
            m.statsMin = try stats.floats(1, "Stats.min")
        }
        return m
    }
}

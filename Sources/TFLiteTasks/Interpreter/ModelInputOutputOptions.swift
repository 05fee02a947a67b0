/// Declared formats of a model's inputs and outputs (ML Kit's `ModelInputOutputOptions`),
/// checked against the model when a ``ModelInterpreter`` is created and at every run.
public struct ModelInputOutputOptions: Sendable, Equatable {
    /// One declared format.
    public struct Format: Sendable, Equatable {
        /// The element type.
        public var type: ModelElementType
        /// The shape, e.g. `[1, 224, 224, 3]`.
        public var dimensions: [Int]
    }

    /// Declared input formats by index.
    public private(set) var inputFormats: [Int: Format] = [:]
    /// Declared output formats by index.
    public private(set) var outputFormats: [Int: Format] = [:]

    /// No formats declared yet.
    public init() {}

    /// Declares input `index`; dimensions must be positive.
    public mutating func setInputFormat(index: Int, type: ModelElementType, dimensions: [Int]) throws(TaskError) {
        try Self.check(index, dimensions, "input")
        inputFormats[index] = Format(type: type, dimensions: dimensions)
    }

    /// Declares output `index`; dimensions must be positive.
    public mutating func setOutputFormat(index: Int, type: ModelElementType, dimensions: [Int]) throws(TaskError) {
        try Self.check(index, dimensions, "output")
        outputFormats[index] = Format(type: type, dimensions: dimensions)
    }

    private static func check(_ index: Int, _ dimensions: [Int], _ role: String) throws(TaskError) {
        guard index >= 0 else { throw .invalidFormat("\(role) index \(index) is negative") }
        guard !dimensions.isEmpty, dimensions.allSatisfy({ $0 > 0 }) else {
            throw .invalidFormat("\(role) \(index): dimensions \(dimensions) must be positive")
        }
        var total = 1
        for d in dimensions {
            let (p, o) = total.multipliedReportingOverflow(by: d)
            guard !o, p <= 1 << 31 else { throw .invalidFormat("\(role) \(index): dimensions \(dimensions) are too large") }
            total = p
        }
    }
}

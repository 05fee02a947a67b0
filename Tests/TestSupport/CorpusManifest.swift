import Foundation

/// One case of a conformance manifest (`Tests/Fixtures/corpus/manifest.json`, and the peer
/// suites' cases in `Tests/Fixtures/peers/manifest.json`): a model, its inputs and the reference
/// outputs with the tolerance each must meet.
public struct CorpusCase: Decodable, Sendable, CustomStringConvertible {
    public struct TensorFile: Decodable, Sendable {
        public var file: String
        public var dtype: String
        public var shape: [Int]
        public var name: String
        public var tolerance: Tolerance?
        public var validRows: ValidRows?

        enum CodingKeys: String, CodingKey {
            case file, dtype, shape, name, tolerance
            case validRows = "valid_rows"
        }
    }

    /// How an output is compared with its golden (see the corpus README).
    public struct Tolerance: Decodable, Sendable {
        public var kind: String
        public var atol: Double?
        public var rtol: Double?
        public var maxAbsDiffUnits: Double?

        enum CodingKeys: String, CodingKey {
            case kind, atol, rtol
            case maxAbsDiffUnits = "max_abs_diff_units"
        }

        public init(kind: String, atol: Double? = nil, rtol: Double? = nil, maxAbsDiffUnits: Double? = nil) {
            self.kind = kind
            self.atol = atol
            self.rtol = rtol
            self.maxAbsDiffUnits = maxAbsDiffUnits
        }
    }

    /// Detector outputs: only the first `count` rows along `axis` are specified, the count
    /// being the value of output `countFromOutput`.
    public struct ValidRows: Decodable, Sendable {
        public var axis: Int
        public var countFromOutput: Int

        enum CodingKeys: String, CodingKey {
            case axis
            case countFromOutput = "count_from_output"
        }
    }

    public var caseName: String
    public var model: String
    public var signature: String?
    public var inputs: [TensorFile]
    public var outputs: [TensorFile]
    public var ops: [String: Int]
    public var subgraphs: Int

    enum CodingKeys: String, CodingKey {
        case caseName = "case"
        case model, signature, inputs, outputs, ops, subgraphs
    }

    public var description: String { caseName }

    /// Every case of the manifest in `root` (the corpus unless told), in file order; the case's
    /// paths are relative to `root`.
    public static func all(in root: URL = Fixtures.corpus) throws -> [CorpusCase] {
        let data = try Data(contentsOf: root.appendingPathComponent("manifest.json"))
        return try JSONDecoder().decode([CorpusCase].self, from: data)
    }
}

/// Blockwise quantisation of a weight matrix (LiteRT's `BlockwiseQuantization` details):
/// each row is cut into blocks of `blockSize` consecutive values along the last axis, and
/// block `b` of row `r` has its own scale, stored as float16 in another tensor of the
/// subgraph with shape `[rows, columns / blockSize]`. Converters use it for int4 weights
/// (block sizes 32 to 256) of transformer models.
public struct BlockwiseQuantization: Sendable, Equatable {
    /// The subgraph tensor holding the float16 scales.
    public var scalesTensor: Int
    /// The subgraph tensor holding per-block zero points, or nil for symmetric blocks.
    public var zeroPointsTensor: Int?
    /// Values per block along the last axis.
    public var blockSize: Int

    public init(scalesTensor: Int, zeroPointsTensor: Int?, blockSize: Int) {
        self.scalesTensor = scalesTensor
        self.zeroPointsTensor = zeroPointsTensor
        self.blockSize = blockSize
    }

    /// Reads the model's details; nil when a tensor's quantisation is not blockwise. A
    /// negative zero-point index means none (the converter writes -1).
    init?(_ q: Schema.QuantizationParameters?) {
        guard case .blockwiseQuantization(let b)? = q?.details else { return nil }
        self.init(scalesTensor: Int(b.scales), zeroPointsTensor: b.zeroPoints >= 0 ? Int(b.zeroPoints) : nil,
                  blockSize: Int(b.blockSize))
    }
}

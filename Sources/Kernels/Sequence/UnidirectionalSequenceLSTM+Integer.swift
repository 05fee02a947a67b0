/// UNIDIRECTIONAL_SEQUENCE_LSTM on int8 activations and weights with an int16 cell state
/// (TFLite's "8x8_16" integer LSTM), operation for operation as LiteRT's portable kernels: each
/// gate's two matrix products are rescaled into Q3.12 and added with saturation, the gates go
/// through gemmlowp's int16 logistic and tanh, the cell state is updated in its power-of-two
/// scale, and the hidden state is requantised to int8 with the hidden intermediate's
/// parameters.
///
/// The full-size gates of the plain LSTM only: the coupled input and forget gates (CIFG),
/// peepholes, projection and layer normalisation are refused at prepare.
public enum UnidirectionalSequenceLSTMInteger {
    /// One gate's rescaling of its input and recurrent products and their folded offsets.
    public struct Gate: Sendable {
        /// Input weight scale * input scale / 2^-12, and recurrent weight scale * output state
        /// scale / 2^-12.
        public var inputMultiplier: QuantizedMultiplier, recurrentMultiplier: QuantizedMultiplier
        /// `bias - inputZeroPoint * rowSum(inputWeights)` and `-outputStateZeroPoint *
        /// rowSum(recurrentWeights)`, one per cell.
        public var inputBias: [Int32], recurrentBias: [Int32]

        /// Groups a gate's parameters.
        public init(inputMultiplier: QuantizedMultiplier, recurrentMultiplier: QuantizedMultiplier,
                    inputBias: [Int32], recurrentBias: [Int32]) {
            self.inputMultiplier = inputMultiplier; self.recurrentMultiplier = recurrentMultiplier
            self.inputBias = inputBias; self.recurrentBias = recurrentBias
        }
    }

    /// Sizes and the integer parameters fixed at prepare.
    public struct Configuration: Sendable {
        /// Batch entries, time steps, input features and cells (the output has one per cell).
        public var batch: Int, time: Int, inputSize: Int, cells: Int
        /// True when the input is `[time, batch, input]` rather than `[batch, time, input]`.
        public var timeMajor: Bool
        /// The input, forget, cell and output gates, in TFLite's order.
        public var gates: [Gate]
        /// log2 of the cell state's scale (the scale must be a power of two), in -15...-9.
        public var cellScaleLog2: Int
        /// The cell clip in cell state units; 0 means none.
        public var cellClip: Int16
        /// 2^-15 * 2^-15 / hidden scale, and the hidden intermediate's zero point.
        public var hiddenMultiplier: QuantizedMultiplier, hiddenZeroPoint: Int32

        /// Creates a configuration.
        public init(batch: Int, time: Int, inputSize: Int, cells: Int, timeMajor: Bool, gates: [Gate],
                    cellScaleLog2: Int, cellClip: Int16, hiddenMultiplier: QuantizedMultiplier, hiddenZeroPoint: Int32) {
            self.batch = batch; self.time = time; self.inputSize = inputSize; self.cells = cells
            self.timeMajor = timeMajor; self.gates = gates; self.cellScaleLog2 = cellScaleLog2
            self.cellClip = cellClip; self.hiddenMultiplier = hiddenMultiplier; self.hiddenZeroPoint = hiddenZeroPoint
        }

        /// Scratch int16 values `run` needs: one row of cells per gate.
        public var scratchCount: Int { 4 * cells }
    }

    /// `bias - zeroPoint * rowSum(weights)` for a `[rows, columns]` int8 matrix; nil bias is 0.
    /// Wrapping arithmetic: hostile weights and zero points overflow as TFLite's int32 would,
    /// without trapping.
    public static func foldedBias(weights: [Int8], rows: Int, columns: Int, zeroPoint: Int32, bias: [Int32]?) -> [Int32] {
        (0..<rows).map { r in
            var sum: Int32 = 0
            for c in 0..<columns { sum &+= Int32(weights[r * columns + c]) }
            return (bias?[r] ?? 0) &+ (0 &- zeroPoint) &* sum
        }
    }

    /// Runs the layer over every time step. `outputState` (`[batch, cells]` int8) and
    /// `cellState` (`[batch, cells]` int16) hold the state on entry and are updated in place.
    /// `inputWeights[g]` is `[cells, inputSize]` and `recurrentWeights[g]` `[cells, cells]`.
    public static func run(_ c: Configuration, input: UnsafePointer<Int8>,
                           inputWeights: [UnsafePointer<Int8>], recurrentWeights: [UnsafePointer<Int8>],
                           outputState: UnsafeMutablePointer<Int8>, cellState: UnsafeMutablePointer<Int16>,
                           output: UnsafeMutablePointer<Int8>, scratch: UnsafeMutablePointer<Int16>) {
        let cells = c.cells
        let inputGate = scratch, forgetGate = scratch + cells, cellGate = scratch + 2 * cells, outputGate = scratch + 3 * cells
        let tanhCellBits = 15 + c.cellScaleLog2
        for t in 0..<c.time {
            for b in 0..<c.batch {
                let step = c.timeMajor ? t * c.batch + b : b * c.time + t
                let x = input + step * c.inputSize
                let h = outputState + b * cells
                let cell = cellState + b * cells
                gate(c, 0, x: x, h: h, inputWeights[0], recurrentWeights[0], into: inputGate, tanh: false)
                gate(c, 1, x: x, h: h, inputWeights[1], recurrentWeights[1], into: forgetGate, tanh: false)
                gate(c, 2, x: x, h: h, inputWeights[2], recurrentWeights[2], into: cellGate, tanh: true)
                for j in 0..<cells {
                    let kept = Int16(truncatingIfNeeded: roundingDivideByPOT(Int32(forgetGate[j]) * Int32(cell[j]), 15))
                    let added = Int16(truncatingIfNeeded: roundingDivideByPOT(Int32(inputGate[j]) * Int32(cellGate[j]),
                                                                              30 + c.cellScaleLog2))
                    var updated = Int16(clamping: Int32(kept) + Int32(added))
                    if c.cellClip > 0 { updated = Swift.min(Swift.max(updated, -c.cellClip), c.cellClip) }
                    cell[j] = updated
                }
                gate(c, 3, x: x, h: h, inputWeights[3], recurrentWeights[3], into: outputGate, tanh: false)
                for j in 0..<cells {
                    let activated = fixedPointTanh16(cell[j], integerBits: tanhCellBits)
                    let product = Int32(outputGate[j]) * Int32(activated)
                    let value = c.hiddenMultiplier.apply(product) &+ c.hiddenZeroPoint
                    h[j] = Int8(clamping: value)
                }
                (output + step * cells).update(from: h, count: cells)
            }
        }
    }

    /// One gate for one batch entry: both products rescaled to Q3.12 and added with saturation,
    /// then the gate's activation (logistic, or tanh for the cell gate) into Q0.15.
    @inline(__always)
    private static func gate(_ c: Configuration, _ g: Int, x: UnsafePointer<Int8>, h: UnsafePointer<Int8>,
                             _ wx: UnsafePointer<Int8>, _ wh: UnsafePointer<Int8>,
                             into out: UnsafeMutablePointer<Int16>, tanh: Bool) {
        let p = c.gates[g]
        for j in 0..<c.cells {
            var fromInput = p.inputBias[j]
            let row = wx + j * c.inputSize
            for k in 0..<c.inputSize { fromInput &+= Int32(row[k]) &* Int32(x[k]) }
            let partial = Swift.min(Swift.max(p.inputMultiplier.apply(fromInput), -32768), 32767)
            var fromState = p.recurrentBias[j]
            let recurrentRow = wh + j * c.cells
            for k in 0..<c.cells { fromState &+= Int32(recurrentRow[k]) &* Int32(h[k]) }
            let sum = Int16(clamping: Int64(p.recurrentMultiplier.apply(fromState)) + Int64(partial))
            out[j] = tanh ? fixedPointTanh16(sum, integerBits: 3) : fixedPointLogistic16(sum, integerBits: 3)
        }
    }
}

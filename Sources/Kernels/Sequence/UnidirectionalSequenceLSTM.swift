#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// UNIDIRECTIONAL_SEQUENCE_LSTM in float32: one LSTM layer run over every time step, with
/// TFLite's optional parts (coupled input and forget gates when the input gate weights are
/// absent, peephole connections, layer normalisation of the gates, projection, cell and
/// projection clipping).
public enum UnidirectionalSequenceLSTM {
    /// The gates in TFLite's order.
    public enum Gate: Int, CaseIterable, Sendable { case input = 0, forget, cell, output }

    /// Sizes and options, fixed at prepare.
    public struct Configuration: Sendable {
        /// Batch entries, time steps, input features, cells and outputs per step.
        public var batch: Int, time: Int, inputSize: Int, cells: Int, outputSize: Int
        /// True when the input is `[time, batch, input]` rather than `[batch, time, input]`.
        public var timeMajor: Bool
        /// Applied to the cell input and to the cell state before the output gate.
        public var activation: FusedActivation
        /// Clip of the cell state and of the projected output; 0 means none.
        public var cellClip: Float, projectionClip: Float
        /// Runs from the last time step back (the backward half of BIDIRECTIONAL_SEQUENCE_LSTM).
        public var reversed = false
        /// Elements from one output row to the next: `outputSize`, or more when two layers
        /// write interleaved halves of one merged output.
        public var outputRowStride: Int

        /// Creates a configuration.
        public init(batch: Int, time: Int, inputSize: Int, cells: Int, outputSize: Int, timeMajor: Bool,
                    activation: FusedActivation, cellClip: Float, projectionClip: Float) {
            self.batch = batch; self.time = time; self.inputSize = inputSize; self.cells = cells
            self.outputSize = outputSize; self.timeMajor = timeMajor; self.activation = activation
            self.cellClip = cellClip; self.projectionClip = projectionClip
            outputRowStride = outputSize
        }

        /// Scratch floats `run` needs.
        public var scratchCount: Int { 4 * cells + outputSize + cells }
    }

    /// The weight tensors of one layer, indexed by `Gate.rawValue`; nil marks an absent
    /// optional tensor. `inputWeights[.input]` and `recurrentWeights[.input]` absent means CIFG
    /// (the input gate is `1 - forget`). Peepholes exist for the input, forget and output gates
    /// (the `.cell` slot is unused).
    public struct Weights {
        /// `[cells, inputSize]` per gate.
        public var inputWeights: [UnsafePointer<Float>?]
        /// `[cells, outputSize]` per gate.
        public var recurrentWeights: [UnsafePointer<Float>?]
        /// `[cells]` per gate (input, forget, output only).
        public var peepholes: [UnsafePointer<Float>?]
        /// `[cells]` per gate.
        public var biases: [UnsafePointer<Float>?]
        /// `[outputSize, cells]` and `[outputSize]`.
        public var projection: UnsafePointer<Float>?, projectionBias: UnsafePointer<Float>?
        /// `[cells]` per gate: the layer-normalisation coefficients, all nil for a plain LSTM
        /// (the input gate's is nil with CIFG). With them a gate's bias is added after the
        /// normalisation instead of before.
        public var layerNorm: [UnsafePointer<Float>?]

        /// Groups the weights.
        public init(inputWeights: [UnsafePointer<Float>?], recurrentWeights: [UnsafePointer<Float>?],
                    peepholes: [UnsafePointer<Float>?], biases: [UnsafePointer<Float>?],
                    projection: UnsafePointer<Float>?, projectionBias: UnsafePointer<Float>?,
                    layerNorm: [UnsafePointer<Float>?] = [nil, nil, nil, nil]) {
            self.inputWeights = inputWeights; self.recurrentWeights = recurrentWeights
            self.peepholes = peepholes; self.biases = biases
            self.projection = projection; self.projectionBias = projectionBias
            self.layerNorm = layerNorm
        }

        /// True when the gates are layer-normalised.
        var isLayerNormalised: Bool { layerNorm[Gate.forget.rawValue] != nil }
    }

    /// Runs the layer over every time step. `outputState` (`[batch, outputSize]`) and
    /// `cellState` (`[batch, cells]`) hold the state on entry and are updated in place, so
    /// they carry over to the next call as in TFLite.
    public static func run(_ c: Configuration, input: UnsafePointer<Float>, weights w: Weights,
                           outputState: UnsafeMutablePointer<Float>, cellState: UnsafeMutablePointer<Float>,
                           output: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>) {
        let gates = scratch, projected = scratch + 4 * c.cells, hidden = projected + c.outputSize
        let cifg = w.inputWeights[0] == nil
        let normalised = w.isLayerNormalised
        for s in 0..<c.time {
            let t = c.reversed ? c.time - 1 - s : s
            for b in 0..<c.batch {
                let step = c.timeMajor ? t * c.batch + b : b * c.time + t
                let x = input + step * c.inputSize
                let h = outputState + b * c.outputSize
                let cell = cellState + b * c.cells
                for g in Gate.allCases {
                    if g == .input && cifg { continue }
                    let pre = gates + g.rawValue * c.cells
                    for j in 0..<c.cells {
                        var sum: Float = normalised ? 0 : w.biases[g.rawValue]?[j] ?? 0
                        if let wx = w.inputWeights[g.rawValue] {
                            for k in 0..<c.inputSize { sum += wx[j * c.inputSize + k] * x[k] }
                        }
                        if let wh = w.recurrentWeights[g.rawValue] {
                            for k in 0..<c.outputSize { sum += wh[j * c.outputSize + k] * h[k] }
                        }
                        pre[j] = sum
                    }
                }
                if normalised {
                    layerNormalisedCell(c, w, cifg: cifg, gates: gates, cell: cell, hidden: hidden)
                } else {
                    plainCell(c, w, cifg: cifg, gates: gates, cell: cell, hidden: hidden)
                }
                if let proj = w.projection {
                    for k in 0..<c.outputSize {
                        var sum: Float = w.projectionBias?[k] ?? 0
                        for j in 0..<c.cells { sum += proj[k * c.cells + j] * hidden[j] }
                        if c.projectionClip > 0 { sum = Swift.min(Swift.max(sum, -c.projectionClip), c.projectionClip) }
                        projected[k] = sum
                    }
                    h.update(from: projected, count: c.outputSize)
                } else {
                    h.update(from: hidden, count: c.outputSize)
                }
                (output + step * c.outputRowStride).update(from: h, count: c.outputSize)
            }
        }
    }

    /// The cell update of a plain step: `gates` holds the four gates' biased matrix products;
    /// peepholes read the old cell state (the output gate's the new one).
    private static func plainCell(_ c: Configuration, _ w: Weights, cifg: Bool, gates: UnsafeMutablePointer<Float>,
                                  cell: UnsafeMutablePointer<Float>, hidden: UnsafeMutablePointer<Float>) {
        let iGate = gates, fGate = gates + c.cells, gGate = gates + 2 * c.cells, oGate = gates + 3 * c.cells
        for j in 0..<c.cells {
            var f = fGate[j]
            if let p = w.peepholes[Gate.forget.rawValue] { f += p[j] * cell[j] }
            f = sigmoid(f)
            var i: Float
            if cifg {
                i = 1 - f
            } else {
                i = iGate[j]
                if let p = w.peepholes[Gate.input.rawValue] { i += p[j] * cell[j] }
                i = sigmoid(i)
            }
            var newCell = f * cell[j] + i * c.activation.apply(gGate[j])
            if c.cellClip > 0 { newCell = Swift.min(Swift.max(newCell, -c.cellClip), c.cellClip) }
            cell[j] = newCell
            var o = oGate[j]
            if let p = w.peepholes[Gate.output.rawValue] { o += p[j] * newCell }
            hidden[j] = sigmoid(o) * c.activation.apply(newCell)
        }
    }

    /// The cell update of a layer-normalised step, in LiteRT's order: the input and forget gates
    /// (with peepholes on the old cell state) and the cell gate are normalised, scaled and
    /// biased, the cell state is updated, then the output gate (with its peephole on the new
    /// cell state) is normalised likewise. `gates` holds the four gates' matrix products.
    private static func layerNormalisedCell(_ c: Configuration, _ w: Weights, cifg: Bool, gates: UnsafeMutablePointer<Float>,
                                            cell: UnsafeMutablePointer<Float>, hidden: UnsafeMutablePointer<Float>) {
        func normalise(_ g: Gate, peepholeOn state: UnsafeMutablePointer<Float>?) {
            let pre = gates + g.rawValue * c.cells
            if let p = w.peepholes[g.rawValue], let state {
                for j in 0..<c.cells { pre[j] += p[j] * state[j] }
            }
            var sum: Float = 0
            for j in 0..<c.cells { sum += pre[j] }
            let mean = sum / Float(c.cells)
            var squares: Float = 0
            for j in 0..<c.cells { squares += (pre[j] - mean) * (pre[j] - mean) }
            let inverse = 1 / (squares / Float(c.cells) + 1e-8).squareRoot()
            let coefficients = w.layerNorm[g.rawValue], bias = w.biases[g.rawValue]
            for j in 0..<c.cells {
                pre[j] = (pre[j] - mean) * inverse * (coefficients?[j] ?? 1) + (bias?[j] ?? 0)
            }
        }
        if !cifg { normalise(.input, peepholeOn: cell) }
        normalise(.forget, peepholeOn: cell)
        normalise(.cell, peepholeOn: nil)
        let iGate = gates, fGate = gates + c.cells, gGate = gates + 2 * c.cells, oGate = gates + 3 * c.cells
        for j in 0..<c.cells {
            let f = sigmoid(fGate[j])
            let i = cifg ? 1 - f : sigmoid(iGate[j])
            var newCell = f * cell[j] + i * c.activation.apply(gGate[j])
            if c.cellClip > 0 { newCell = Swift.min(Swift.max(newCell, -c.cellClip), c.cellClip) }
            cell[j] = newCell
        }
        normalise(.output, peepholeOn: cell)
        for j in 0..<c.cells { hidden[j] = sigmoid(oGate[j]) * c.activation.apply(cell[j]) }
    }

    @inline(__always)
    static func sigmoid(_ x: Float) -> Float { 1 / (1 + expf(-x)) }
}

/// The fully connected recurrent cell of RNN, UNIDIRECTIONAL_SEQUENCE_RNN and
/// BIDIRECTIONAL_SEQUENCE_RNN (float): h' = activation(W x + R h + b), written to the output
/// row and kept as the next hidden state. Sums run in LiteRT's order (bias, then the input
/// product, then the recurrent one), each product a plain dot per row.
public enum RNN {
    public struct Cell {
        public let inputWeights: UnsafePointer<Float>     // [units, inputSize]
        public let recurrentWeights: UnsafePointer<Float> // [units, units]
        public let bias: UnsafePointer<Float>             // [units]
        public let inputSize: Int
        public let units: Int
        public let activation: FusedActivation

        public init(inputWeights: UnsafePointer<Float>, recurrentWeights: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                    inputSize: Int, units: Int, activation: FusedActivation) {
            self.inputWeights = inputWeights
            self.recurrentWeights = recurrentWeights
            self.bias = bias
            self.inputSize = inputSize
            self.units = units
            self.activation = activation
        }
    }

    /// One step for one batch row: reads `input` and `hidden`, writes `output` (units values)
    /// and the new `hidden`.
    @inline(__always)
    public static func step(_ c: Cell, input: UnsafePointer<Float>, hidden: UnsafeMutablePointer<Float>,
                            output: UnsafeMutablePointer<Float>) {
        for r in 0..<c.units {
            var x: Float = 0
            let w = c.inputWeights + r * c.inputSize
            for k in 0..<c.inputSize { x += w[k] * input[k] }
            output[r] = c.bias[r] + x
        }
        for r in 0..<c.units {
            var h: Float = 0
            let w = c.recurrentWeights + r * c.units
            for k in 0..<c.units { h += w[k] * hidden[k] }
            output[r] += h
        }
        for r in 0..<c.units {
            output[r] = c.activation.apply(output[r])
            hidden[r] = output[r]
        }
    }

    /// Steps over a sequence: `steps` time steps of `batch` rows, the input rows `inputStride`
    /// apart per step and `inputBatchStride` per batch row (likewise for the output), in order
    /// or (`reversed`) from the last step back.
    public static func sequence(_ c: Cell, input: UnsafePointer<Float>, steps: Int, batch: Int,
                                inputStepStride: Int, inputBatchStride: Int,
                                hidden: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>,
                                outputStepStride: Int, outputBatchStride: Int, reversed: Bool = false) {
        for t in 0..<steps {
            let s = reversed ? steps - 1 - t : t
            for b in 0..<batch {
                step(c, input: input + s * inputStepStride + b * inputBatchStride, hidden: hidden + b * c.units,
                     output: output + s * outputStepStride + b * outputBatchStride)
            }
        }
    }
}

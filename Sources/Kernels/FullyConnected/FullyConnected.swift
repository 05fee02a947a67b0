/// What prepare computes once for a float FULLY_CONNECTED node.
public struct FullyConnectedParams: Sendable {
    /// The fused activation as a clamp.
    public var activation: ActivationRange<Float>

    /// Creates the parameters of one FULLY_CONNECTED node.
    public init(activation: ActivationRange<Float>) {
        self.activation = activation
    }
}

/// Float FULLY_CONNECTED: `output[b][o] = act(sum_i input[b][i] * weights[o][i] + bias[o])`.
/// The input is viewed as `[batch, inputDepth]` (the runtime flattens leading dimensions and
/// handles `keep_num_dims`); weights are `[outputDepth, inputDepth]`.
public enum FullyConnected {
    /// The reference loop, mirroring TFLite's `reference_ops::FullyConnected`.
    public static func reference(params: FullyConnectedParams,
                                 input: UnsafePointer<Float>, batch: Int, inputDepth: Int,
                                 weights: UnsafePointer<Float>, outputDepth: Int,
                                 bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        for b in 0..<batch {
            for o in 0..<outputDepth {
                var sum: Float = 0
                for i in 0..<inputDepth { sum += input[b * inputDepth + i] * weights[o * inputDepth + i] }
                if let bias { sum += bias[o] }
                output[b * outputDepth + o] = params.activation.clamp(sum)
            }
        }
    }
}

/// What prepare computes once for a float DEPTHWISE_CONV_2D node.
public struct DepthwiseConv2DParams: Sendable {
    /// Strides, dilations and padding.
    public var geometry: ConvGeometry
    /// Output channels per input channel.
    public var depthMultiplier: Int
    /// The fused activation as a clamp.
    public var activation: ActivationRange<Float>

    /// Creates the parameters of one DEPTHWISE_CONV_2D node.
    public init(geometry: ConvGeometry, depthMultiplier: Int, activation: ActivationRange<Float>) {
        self.geometry = geometry
        self.depthMultiplier = depthMultiplier
        self.activation = activation
    }
}

/// Float DEPTHWISE_CONV_2D. Tensors are NHWC; the filter is `[1, filterHeight, filterWidth,
/// inputChannels * depthMultiplier]`, and output channel `c * depthMultiplier + m` reads input
/// channel `c`.
public enum DepthwiseConv2D {}

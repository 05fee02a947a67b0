/// What prepare computes once for a float CONV_2D node: the window geometry (strides,
/// dilations, padding) and the fused activation clamp.
public struct Conv2DParams: Sendable {
    /// Strides, dilations and padding.
    public var geometry: ConvGeometry
    /// The fused activation as a clamp.
    public var activation: ActivationRange<Float>

    /// Creates the parameters of one CONV_2D node.
    public init(geometry: ConvGeometry, activation: ActivationRange<Float>) {
        self.geometry = geometry
        self.activation = activation
    }
}

/// Float CONV_2D. Tensors are NHWC; the filter is `[outputChannels, filterHeight, filterWidth,
/// inputChannels / groups]` (its ``NHWC`` fields read batch = output channels, channels =
/// input channels per group); the bias, when present, has one value per output channel.
public enum Conv2D {}

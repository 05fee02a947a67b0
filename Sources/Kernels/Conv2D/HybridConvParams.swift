/// What a dynamic-range ("hybrid") convolution needs at run time: float activations, int8
/// weights with one scale per output channel, a float bias and a float activation clamp.
public struct HybridConvParams: Sendable {
    /// Strides, dilations and padding.
    public var geometry: ConvGeometry
    /// One weight scale per output channel (a per-tensor scale repeated).
    public var filterScales: [Float]
    /// The fused activation clamp.
    public var activation: ActivationRange<Float>
    /// Quantise inputs asymmetrically. LiteRT's per-channel hybrid CONV_2D and
    /// DEPTHWISE_CONV_2D always do (their options have no such flag); FULLY_CONNECTED follows
    /// its `asymmetric_quantize_inputs` option.
    public var asymmetricInputs: Bool

    /// Creates the parameters.
    public init(geometry: ConvGeometry, filterScales: [Float], activation: ActivationRange<Float>, asymmetricInputs: Bool) {
        self.geometry = geometry
        self.filterScales = filterScales
        self.activation = activation
        self.asymmetricInputs = asymmetricInputs
    }
}

/// What a quantised CONV_2D needs at run time, computed once at prepare.
///
/// Offsets follow TFLite's sign convention: input and filter offsets are the negated zero
/// points (added to stored values), the output offset is the output zero point.
public struct QuantizedConvParams: Sendable {
    /// Strides, dilations and padding.
    public var geometry: ConvGeometry
    /// `-inputZeroPoint`.
    public var inputOffset: Int32
    /// `-filterZeroPoint`: 0 for int8's symmetric weights, the negated zero point for uint8.
    public var filterOffset: Int32
    /// `outputZeroPoint`.
    public var outputOffset: Int32
    /// One rescale per output channel (a per-tensor multiplier repeated for every channel).
    public var outputMultipliers: [QuantizedMultiplier]
    /// The fused activation clamp in stored units.
    public var activation: ActivationRange<Int32>

    /// Creates the parameters from values prepare has already derived.
    public init(geometry: ConvGeometry, inputOffset: Int32, filterOffset: Int32, outputOffset: Int32,
                outputMultipliers: [QuantizedMultiplier], activation: ActivationRange<Int32>) {
        self.geometry = geometry
        self.inputOffset = inputOffset
        self.filterOffset = filterOffset
        self.outputOffset = outputOffset
        self.outputMultipliers = outputMultipliers
        self.activation = activation
    }

    /// Derives the parameters from the tensors' quantisation, as TFLite's conv prepare does.
    ///
    /// - Parameters:
    ///   - filterScales: one scale per output channel, or a single per-tensor scale.
    ///   - outputChannels: the filter's output-channel count.
    ///   - storage: the output storage range (for the activation clamp).
    /// - Returns: nil when the fused activation is not a clamp.
    ///
    /// int8 and int16 layers get per-channel multipliers in double precision
    /// (`PopulateConvolutionQuantizationParams`); uint8 layers (`qmin == 0`) use TFLite's legacy
    /// single multiplier from the float product of the scales (`QuantizedMultiplier.perTensor`).
    public static func make(geometry: ConvGeometry, input: AffineQuantization, filterScales: [Float],
                            filterZeroPoint: Int32, output: AffineQuantization, outputChannels: Int,
                            activation: FusedActivation, qmin: Int32, qmax: Int32) -> QuantizedConvParams? {
        guard let range = activation.quantizedRange(scale: output.scale, zeroPoint: output.zeroPoint, qmin: qmin, qmax: qmax)
        else { return nil }
        let multipliers = qmin == 0
            ? [QuantizedMultiplier](repeating: QuantizedMultiplier.perTensor(inputScale: input.scale, filterScale: filterScales[0],
                                                                             outputScale: output.scale), count: outputChannels)
            : QuantizedMultiplier.perChannel(inputScale: input.scale, filterScales: filterScales,
                                             outputScale: output.scale, channels: outputChannels)
        return QuantizedConvParams(geometry: geometry, inputOffset: -input.zeroPoint, filterOffset: -filterZeroPoint,
                                   outputOffset: output.zeroPoint, outputMultipliers: multipliers, activation: range)
    }
}

/// What a quantised FULLY_CONNECTED (or BATCH_MATMUL) needs at run time, computed once at
/// prepare. Offsets follow TFLite's convention: negated input and filter zero points, the
/// output zero point as is.
public struct QuantizedFullyConnectedParams: Sendable {
    /// `-inputZeroPoint`.
    public var inputOffset: Int32
    /// `-filterZeroPoint` (0 for symmetric int8 weights).
    public var filterOffset: Int32
    /// `outputZeroPoint`.
    public var outputOffset: Int32
    /// One rescale per output channel (per-channel weights) or a single one (per-tensor).
    public var outputMultipliers: [QuantizedMultiplier]
    /// The fused activation clamp in stored units.
    public var activation: ActivationRange<Int32>
    /// The rescale's rounding: `.single` reproduces LiteRT's FULLY_CONNECTED, `.double` its
    /// BATCH_MATMUL.
    public var rounding: QuantizedRounding

    /// Creates the parameters from values prepare has already derived.
    public init(inputOffset: Int32, filterOffset: Int32, outputOffset: Int32,
                outputMultipliers: [QuantizedMultiplier], activation: ActivationRange<Int32>,
                rounding: QuantizedRounding) {
        self.inputOffset = inputOffset
        self.filterOffset = filterOffset
        self.outputOffset = outputOffset
        self.outputMultipliers = outputMultipliers
        self.activation = activation
        self.rounding = rounding
    }

    /// Derives the parameters from the tensors' quantisation. `filterScales` holds one scale per
    /// output channel or a single per-tensor scale; the multipliers follow the same layout.
    /// Nil when the fused activation is not a clamp.
    ///
    /// As in TFLite, a per-channel multiplier is `inputScale * filterScale[c] / outputScale` in
    /// double precision, while a per-tensor one (FULLY_CONNECTED's `GetQuantizedConvolutionMultipler`,
    /// BATCH_MATMUL) multiplies the two float scales in float before dividing in double; the two
    /// can differ in the last bit, which changes some outputs by one unit.
    public static func make(input: AffineQuantization, filterScales: [Float], filterZeroPoint: Int32,
                            output: AffineQuantization, activation: FusedActivation,
                            qmin: Int32, qmax: Int32, rounding: QuantizedRounding) -> QuantizedFullyConnectedParams? {
        guard let range = activation.quantizedRange(scale: output.scale, zeroPoint: output.zeroPoint, qmin: qmin, qmax: qmax)
        else { return nil }
        let multipliers = filterScales.count == 1
            ? [QuantizedMultiplier.perTensor(inputScale: input.scale, filterScale: filterScales[0], outputScale: output.scale)]
            : QuantizedMultiplier.perChannel(inputScale: input.scale, filterScales: filterScales,
                                             outputScale: output.scale, channels: filterScales.count)
        return QuantizedFullyConnectedParams(inputOffset: -input.zeroPoint, filterOffset: -filterZeroPoint,
                                             outputOffset: output.zeroPoint, outputMultipliers: multipliers,
                                             activation: range, rounding: rounding)
    }
}

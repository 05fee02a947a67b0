#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A real multiplier in TFLite's fixed-point form: `multiplier * 2^(shift - 31)`, with
/// `multiplier` a Q0.31 value in [2^30, 2^31) (or 0) and `shift` positive for a left shift.
///
/// Integer kernels rescale their int32 accumulators with these instead of floats, which is
/// what makes their results bit-exact across platforms.
public struct QuantizedMultiplier: Sendable, Equatable {
    /// The Q0.31 significand.
    public var multiplier: Int32
    /// The power-of-two exponent; positive shifts left, negative shifts right.
    public var shift: Int

    /// Wraps an already computed significand and exponent.
    public init(multiplier: Int32, shift: Int) {
        self.multiplier = multiplier
        self.shift = shift
    }

    /// Converts a real multiplier the way TFLite's `QuantizeMultiplier` does: `frexp` splits it
    /// into a significand in [0.5, 1) and an exponent, the significand is rounded half away from
    /// zero to 31 fractional bits, a significand that rounds up to exactly 2^31 is halved (and the
    /// exponent raised), and multipliers below about 2^-31 flush to zero.
    ///
    /// A NaN or infinite multiplier (which TFLite's prepare would reject, and which only a
    /// malformed model can produce) becomes 0 instead of trapping; prepare should reject
    /// non-finite and non-positive scales before building kernels.
    public init(_ real: Double) {
        if real == 0 || !real.isFinite {
            self.init(multiplier: 0, shift: 0)
            return
        }
        var exponent: Int32 = 0
        let significand = frexp(real, &exponent)
        var fixed = Int64((significand * 2147483648.0).rounded(.toNearestOrAwayFromZero))
        var shift = Int(exponent)
        if fixed == 1 << 31 {
            fixed /= 2
            shift += 1
        }
        if shift < -31 {
            shift = 0
            fixed = 0
        }
        self.init(multiplier: Int32(fixed), shift: shift)
    }

    /// The real value this multiplier stands for (for diagnostics and tests).
    public var realValue: Double {
        Double(multiplier) * pow(2.0, Double(shift - 31))
    }

    /// Rescales an int32 accumulator: TFLite's double-rounding `MultiplyByQuantizedMultiplier`
    /// (a saturating rounding doubling high multiply after any left shift, then a rounding
    /// right shift). LiteRT is built without `TFLITE_SINGLE_ROUNDING`, so this is the form its
    /// kernels use.
    @inlinable
    public func apply(_ x: Int32) -> Int32 {
        multiplyByQuantizedMultiplier(x, multiplier, shift)
    }

    /// Rescales an int32 accumulator with the given rounding.
    @inlinable
    public func apply(_ x: Int32, rounding: QuantizedRounding) -> Int32 {
        switch rounding {
        case .double: return multiplyByQuantizedMultiplier(x, multiplier, shift)
        case .single: return multiplyByQuantizedMultiplierSingleRounding(x, multiplier, shift)
        }
    }

    /// Rescales an int64 accumulator (16x8 kernels): TFLite's 64-bit
    /// `MultiplyByQuantizedMultiplier`, which first reduces the multiplier to 16 bits.
    @inlinable
    public func apply(_ x: Int64) -> Int32 {
        multiplyByQuantizedMultiplier(x, multiplier, shift)
    }
}

extension QuantizedMultiplier {
    /// TFLite's `QuantizeMultiplierSmallerThanOneExp`: the same conversion, for multipliers in
    /// (0, 1), whose shift is never positive. Nil outside that range.
    public static func smallerThanOne(_ real: Double) -> QuantizedMultiplier? {
        guard real > 0, real < 1 else { return nil }
        let q = QuantizedMultiplier(real)
        return q.shift <= 0 ? q : nil
    }

    /// TFLite's `QuantizeMultiplierGreaterThanOne`: for multipliers above 1, whose shift is never
    /// negative. Nil outside that range.
    public static func greaterThanOne(_ real: Double) -> QuantizedMultiplier? {
        guard real > 1 else { return nil }
        let q = QuantizedMultiplier(real)
        return q.shift >= 0 ? q : nil
    }

    /// The single multiplier of a per-tensor quantised convolution or fully connected layer as
    /// TFLite's `GetQuantizedConvolutionMultipler` computes it: `inputScale * filterScale` in
    /// float, then divided by `outputScale` in double.
    public static func perTensor(inputScale: Float, filterScale: Float, outputScale: Float) -> QuantizedMultiplier {
        QuantizedMultiplier(Double(inputScale * filterScale) / Double(outputScale))
    }

    /// One multiplier per output channel for a convolution or fully connected layer:
    /// `inputScale * filterScale[c] / outputScale`, computed in double precision from the float
    /// scales, as TFLite's `PopulateConvolutionQuantizationParams` does. A single filter scale is
    /// broadcast to `channels` channels.
    public static func perChannel(inputScale: Float, filterScales: [Float], outputScale: Float,
                                  channels: Int) -> [QuantizedMultiplier] {
        (0..<channels).map { c in
            let filterScale = filterScales.count == 1 ? filterScales[0] : filterScales[c]
            return QuantizedMultiplier(Double(inputScale) * Double(filterScale) / Double(outputScale))
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A 256-entry table mapping every int8 or uint8 input to its output, built in float the way
/// TFLite's `LUTPopulate` / `PopulateLookupTable` build it: dequantise, apply the function,
/// divide by the output scale, round half away from zero, add the output zero point, clamp.
///
/// LiteRT's reference kernels evaluate int8/uint8 LOGISTIC, TANH, GELU and ELU through such a
/// table, so building it with the same float operations reproduces their results.
public struct QuantizedLookupTable<T: QuantizedElement>: Sendable {
    /// Outputs indexed by the input's bit pattern (`UInt8(truncatingIfNeeded: input)`).
    public private(set) var entries: [T]

    /// Tabulates `transform` for inputs quantised with `input` and outputs with `output`.
    /// `T` must be `Int8` or `UInt8`.
    public init(input: AffineQuantization, output: AffineQuantization, transform: (Float) -> Float) {
        precondition(T.bitWidth == 8, "lookup tables are for 8-bit types")
        var entries = [T](repeating: 0, count: 256)
        let inverseScale = 1 / output.scale
        for value in T.quantizedMin...T.quantizedMax {
            let dequantized = input.scale * Float(value - input.zeroPoint)
            let rescaled = (transform(dequantized) * inverseScale).rounded(.toNearestOrAwayFromZero)
            let quantized = int32LikeX86(rescaled + Float(output.zeroPoint))
            entries[Int(UInt8(truncatingIfNeeded: value))] = T(saturatingQuantized: quantized)
        }
        self.entries = entries
    }

    /// LOGISTIC: `1 / (1 + exp(-x))`.
    public static func logistic(input: AffineQuantization, output: AffineQuantization) -> Self {
        Self(input: input, output: output) { 1 / (1 + expf(-$0)) }
    }

    /// TANH.
    public static func tanh(input: AffineQuantization, output: AffineQuantization) -> Self {
        Self(input: input, output: output) { tanhf($0) }
    }

    /// ELU: `x` for positive inputs, `exp(x) - 1` otherwise.
    public static func elu(input: AffineQuantization, output: AffineQuantization) -> Self {
        Self(input: input, output: output) { $0 < 0 ? expm1f($0) : $0 }
    }

    /// EXP (LiteRT's int8/uint8 EXP is table driven).
    public static func exp(input: AffineQuantization, output: AffineQuantization) -> Self {
        Self(input: input, output: output) { expf($0) }
    }

    /// LOG (the table reproduces LiteRT's int8 LOG on the corpus; non-positive inputs give the
    /// storage minimum, as LiteRT's conversion of -infinity and NaN does).
    public static func log(input: AffineQuantization, output: AffineQuantization) -> Self {
        Self(input: input, output: output) { logf($0) }
    }

    /// GELU, exact (`erf`, evaluated in double like TFLite's transform) or with the tanh
    /// approximation (in float).
    public static func gelu(input: AffineQuantization, output: AffineQuantization, approximate: Bool) -> Self {
        if approximate {
            let sqrtTwoOverPi = Float(2.0 / Double.pi).squareRoot()
            return Self(input: input, output: output) { x in
                0.5 * x * (1 + tanhf(sqrtTwoOverPi * (x + 0.044715 * x * x * x)))
            }
        }
        return Self(input: input, output: output) { x in
            Float(Double(0.5 * x) * (1 + erf(Double(x) * 0.5.squareRoot())))
        }
    }
}

extension Activations.Quantized {
    /// Maps `count` values through a lookup table.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    public static func lookup<T: QuantizedElement>(_ table: QuantizedLookupTable<T>, input: UnsafePointer<T>,
                                                   output: UnsafeMutablePointer<T>, count: Int) {
        table.entries.withUnsafeBufferPointer { t in
            for i in 0..<count {
                output[i] = t[Int(UInt8(truncatingIfNeeded: input[i]))]
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a quantised SOFTMAX needs at run time: `exp(-inputScale * beta * d)` for every
/// possible distance `d` (0...255) below the row maximum, and the output quantisation.
///
/// LiteRT 2.3 evaluates int8/uint8 SOFTMAX through this float table for every resolver,
/// including the reference one, so the table is built with the same float operations
/// (TFLite's `PopulateSoftmaxLookupTable`).
public struct QuantizedSoftmaxParams: Sendable {
    /// `table[255 - d] = exp(-inputScale * beta * d)`.
    public var table: [Float]
    /// The output scale.
    public var outputScale: Float
    /// The output zero point.
    public var outputZeroPoint: Int32

    /// Builds the table for an input scale and `beta`.
    public init(inputScale: Float, beta: Float, output: AffineQuantization) {
        let scale = -inputScale * beta
        var table = [Float](repeating: 0, count: 256)
        for d in 0...255 {
            table[255 - d] = expf(scale * Float(d))
        }
        self.table = table
        self.outputScale = output.scale
        self.outputZeroPoint = output.zeroPoint
    }
}

extension Softmax.Quantized {
    /// Quantised SOFTMAX over the last axis (int8 or uint8 in; the same type, or int16 from int8,
    /// out), as LiteRT computes it: a float sum of table entries per row, `1 / (sum *
    /// outputScale)`, then each probability rounded, offset and clamped to the output type.
    ///
    /// - Parameters:
    ///   - rows: the product of all axes but the last.
    ///   - depth: the extent of the last axis.
    @_specialize(exported: true, where In == Int8, Out == Int8)
    @_specialize(exported: true, where In == UInt8, Out == UInt8)
    @_specialize(exported: true, where In == Int8, Out == Int16)
    public static func reference<In: QuantizedElement, Out: QuantizedElement>(
        _ params: QuantizedSoftmaxParams, input: UnsafePointer<In>, output: UnsafeMutablePointer<Out>, rows: Int, depth: Int) {
        // The 256-entry table covers every distance between two 8-bit values only.
        precondition(In.bitWidth == 8, "Softmax.Quantized.reference is for int8 and uint8 inputs")
        params.table.withUnsafeBufferPointer { table in
            for r in 0..<rows {
                let x = input + r * depth
                let y = output + r * depth
                var maximum = In.quantizedMin
                for j in 0..<depth { maximum = max(maximum, Int32(x[j])) }
                // Entry for value v is table[255 - (maximum - v)].
                let base = 255 - Int(maximum)
                var sum: Float = 0
                for j in 0..<depth { sum += table[base + Int(x[j])] }
                let inverse = 1 / (sum * params.outputScale)
                for j in 0..<depth {
                    let scaled = table[base + Int(x[j])] * inverse
                    let q = quantizeSoftmaxOutput(scaled, Out.self) &+ params.outputZeroPoint
                    y[j] = Out(saturatingQuantized: q)
                }
            }
        }
    }
}

/// TFLite rounds uint8 softmax outputs by adding 0.5 and truncating on x86 (its
/// `QuantizeSoftmaxOutput<uint8_t>` specialisation) and with `round` for other types.
@inline(__always)
func quantizeSoftmaxOutput<T: QuantizedElement>(_ value: Float, _: T.Type) -> Int32 {
    if T.self == UInt8.self { return int32LikeX86(value + 0.5) }
    return int32LikeX86(value.rounded(.toNearestOrAwayFromZero))
}

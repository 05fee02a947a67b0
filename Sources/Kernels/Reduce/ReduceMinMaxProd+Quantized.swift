#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Reduce.Quantized {
    /// Quantised REDUCE_MAX (`largest`) or REDUCE_MIN over `reduced` axes: the maximum or minimum
    /// stored value (input and output share their quantisation, as TFLite requires). An empty
    /// reduction gives the type's minimum or maximum. The two ops differ only in the comparison
    /// and its starting value, so they share one kernel; the choice is made once, outside the loop.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func maximumMinimum<T: QuantizedElement>(largest: Bool, input: UnsafePointer<T>, inputShape: [Int],
                                                           reduced: [Bool], output: UnsafeMutablePointer<T>, outputCount: Int) {
        output.update(repeating: largest ? T.min : T.max, count: outputCount)
        if largest {
            forEachReducedElement(inputShape: inputShape, reduced: reduced) { i, o in output[o] = max(output[o], input[i]) }
        } else {
            forEachReducedElement(inputShape: inputShape, reduced: reduced) { i, o in output[o] = min(output[o], input[i]) }
        }
    }
}

/// What a quantised REDUCE_PROD needs: TFLite rescales after every multiplication by
/// `inputScale / outputScale^(1 / count)` so the running product stays in range.
public struct QuantizedReduceProdParams: Sendable {
    /// The input zero point.
    public var inputZeroPoint: Int32
    /// The output zero point.
    public var outputZeroPoint: Int32
    /// The per-step rescale.
    public var scaling: QuantizedMultiplier

    /// Derives the parameters for a reduction over `count` elements per output.
    public init(input: AffineQuantization, output: AffineQuantization, count: Int) {
        inputZeroPoint = input.zeroPoint
        outputZeroPoint = output.zeroPoint
        scaling = QuantizedMultiplier(Double(input.scale) / pow(Double(output.scale), 1.0 / Double(count)))
    }
}

extension Reduce.Quantized {
    /// Quantised REDUCE_PROD (int8, int16), as TFLite's `QuantizedReduceProd`: the first element
    /// minus the zero point, then for each further element an int64 product rescaled with the
    /// 64-bit multiply, and a final rescale plus the output zero point. `products` is `outputCount`
    /// int64 values of working space.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == Int16)
    public static func product<T: QuantizedElement>(_ params: QuantizedReduceProdParams,
                                                    input: UnsafePointer<T>, inputShape: [Int], reduced: [Bool],
                                                    output: UnsafeMutablePointer<T>, outputCount: Int,
                                                    products: UnsafeMutablePointer<Int64>) {
        // Every product fits in int32, so int64's minimum marks an output with no element yet.
        let notStarted = Int64.min
        products.initialize(repeating: notStarted, count: outputCount)
        forEachReducedElement(inputShape: inputShape, reduced: reduced) { i, o in
            let x = Int32(input[i]) &- params.inputZeroPoint
            if products[o] != notStarted {
                products[o] = Int64(params.scaling.apply(products[o] &* Int64(x)))
            } else {
                products[o] = Int64(x)
            }
        }
        for o in 0..<outputCount {
            // An empty reduction rescales a product of 0.
            let product = products[o] == notStarted ? 0 : Int32(truncatingIfNeeded: products[o])
            let value = params.scaling.apply(product) &+ params.outputZeroPoint
            output[o] = T(saturatingQuantized: value)
        }
    }
}

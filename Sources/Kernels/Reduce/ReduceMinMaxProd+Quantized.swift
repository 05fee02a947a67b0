#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Quantised REDUCE_MAX over `reduced` axes: the maximum stored value (input and output share
/// their quantisation, as TFLite requires). An empty reduction gives the type's minimum.
@_specialize(exported: true, where T == Int8)
@_specialize(exported: true, where T == UInt8)
@_specialize(exported: true, where T == Int16)
public func quantizedReduceMax<T: QuantizedElement>(input: UnsafePointer<T>, inputShape: [Int], reduced: [Bool],
                                                    output: UnsafeMutablePointer<T>, outputCount: Int) {
    for o in 0..<outputCount { output[o] = T.min }
    forEachReducedElement(inputShape: inputShape, reduced: reduced) { i, o in
        output[o] = max(output[o], input[i])
    }
}

/// Quantised REDUCE_MIN over `reduced` axes: the minimum stored value. An empty reduction gives
/// the type's maximum.
@_specialize(exported: true, where T == Int8)
@_specialize(exported: true, where T == UInt8)
@_specialize(exported: true, where T == Int16)
public func quantizedReduceMin<T: QuantizedElement>(input: UnsafePointer<T>, inputShape: [Int], reduced: [Bool],
                                                    output: UnsafeMutablePointer<T>, outputCount: Int) {
    for o in 0..<outputCount { output[o] = T.max }
    forEachReducedElement(inputShape: inputShape, reduced: reduced) { i, o in
        output[o] = min(output[o], input[i])
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

/// Quantised REDUCE_PROD (int8, int16), as TFLite's `QuantizedReduceProd`: the first element
/// minus the zero point, then for each further element an int64 product rescaled with the
/// 64-bit multiply, and a final rescale plus the output zero point.
@_specialize(exported: true, where T == Int8)
@_specialize(exported: true, where T == Int16)
public func quantizedReduceProd<T: QuantizedElement>(_ params: QuantizedReduceProdParams,
                                                     input: UnsafePointer<T>, inputShape: [Int], reduced: [Bool],
                                                     output: UnsafeMutablePointer<T>, outputCount: Int) {
    var products = [Int32](repeating: 0, count: outputCount)
    var started = [Bool](repeating: false, count: outputCount)
    forEachReducedElement(inputShape: inputShape, reduced: reduced) { i, o in
        let x = Int32(input[i]) &- params.inputZeroPoint
        if started[o] {
            products[o] = params.scaling.apply(Int64(products[o]) &* Int64(x))
        } else {
            products[o] = x
            started[o] = true
        }
    }
    for o in 0..<outputCount {
        let value = params.scaling.apply(products[o]) &+ params.outputZeroPoint
        output[o] = T(saturatingQuantized: value)
    }
}

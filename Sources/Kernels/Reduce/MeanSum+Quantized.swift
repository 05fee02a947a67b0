/// What a quantised MEAN or SUM needs at run time.
public struct QuantizedMeanSumParams: Sendable {
    /// The input quantisation.
    public var input: AffineQuantization
    /// The output quantisation.
    public var output: AffineQuantization
    /// `inputScale / outputScale`.
    public var multiplier: QuantizedMultiplier

    /// Derives the parameters from the tensors' quantisation.
    public init(input: AffineQuantization, output: AffineQuantization) {
        self.input = input
        self.output = output
        self.multiplier = QuantizedMultiplier(Double(input.scale) / Double(output.scale))
    }

    /// MEAN's rescale of a sum of `count` values: ``multiplier`` divided by `count`, with up to
    /// 32 extra bits of precision, as TFLite folds the division in.
    public func meanMultiplier(count: Int) -> QuantizedMultiplier {
        var extra = Int.bitWidth - 1 - count.leadingZeroBitCount
        extra = min(extra, 32)
        extra = min(extra, 31 + multiplier.shift)
        var q = multiplier
        q.multiplier = Int32(truncatingIfNeeded: (Int64(multiplier.multiplier) << Int64(extra)) / Int64(count))
        q.shift -= extra
        return q
    }
}

extension Reduce.Quantized {
    /// Reference quantised MEAN or SUM over `reduced` axes (int8, uint8, int16), as TFLite's
    /// reference `QuantizedMeanOrSum`: an int32 sum of stored values, the input zero point removed
    /// `count` times, then one rescale. For MEAN the division by `count` is folded into the
    /// multiplier (up to 32 extra bits of precision, as TFLite does).
    ///
    /// - Parameters:
    ///   - reduced: per input axis, whether it is reduced (see `reductionMask(rank:axes:)`).
    ///   - output: `outputCount` elements, the product of the kept axes.
    ///   - sums: `outputCount` int32 values of working space.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    @_specialize(exported: true, where T == Int16)
    public static func meanOrSum<T: QuantizedElement>(
        _ params: QuantizedMeanSumParams, computeSum: Bool,
        input: UnsafePointer<T>, inputShape: [Int], reduced: [Bool],
        output: UnsafeMutablePointer<T>, outputCount: Int, sums: UnsafeMutablePointer<Int32>
    ) {
        let count = reducedSums(input: input, inputShape: inputShape, reduced: reduced, into: sums, outputCount: outputCount)
        guard count > 0 else {
            for o in 0..<outputCount { output[o] = 0 }
            return
        }
        let rescale = computeSum ? params.multiplier : params.meanMultiplier(count: count)
        for o in 0..<outputCount {
            let shifted = sums[o] &- params.input.zeroPoint &* Int32(truncatingIfNeeded: count)
            let value = rescale.apply(shifted) &+ params.output.zeroPoint
            output[o] = T(saturatingQuantized: value)
        }
    }

    /// Quantised SUM as LiteRT's optimised kernel computes it when the output is rescaled (the
    /// corpus golden for `zoo_reduce_int8` comes from that kernel): the int32 sum rescaled in float,
    /// `round(sum * s + bias) + outputZeroPoint` with `s = inputScale / outputScale` and
    /// `bias = -inputZeroPoint * s * count`, then clamped. `sums` is `outputCount` int32 values of
    /// working space.
    @_specialize(exported: true, where T == Int8)
    @_specialize(exported: true, where T == UInt8)
    public static func sumFloatRescale<T: QuantizedElement>(
        _ params: QuantizedMeanSumParams,
        input: UnsafePointer<T>, inputShape: [Int], reduced: [Bool],
        output: UnsafeMutablePointer<T>, outputCount: Int, sums: UnsafeMutablePointer<Int32>
    ) {
        let count = reducedSums(input: input, inputShape: inputShape, reduced: reduced, into: sums, outputCount: outputCount)
        let scale = params.input.scale / params.output.scale
        let bias = Float(-params.input.zeroPoint) * scale * Float(count)
        for o in 0..<outputCount {
            let rounded = (Float(sums[o]) * scale + bias).rounded(.toNearestOrAwayFromZero)
            output[o] = T(saturatingQuantized: int32LikeX86(rounded) &+ params.output.zeroPoint)
        }
    }
}

/// Sums `input` over the `reduced` axes into `sums` (`outputCount` int32 values, wrapping as
/// LiteRT's accumulators do) and returns how many elements each sum takes.
@inline(__always)
private func reducedSums<T: QuantizedElement>(input: UnsafePointer<T>, inputShape: [Int], reduced: [Bool],
                                              into sums: UnsafeMutablePointer<Int32>, outputCount: Int) -> Int {
    sums.initialize(repeating: 0, count: outputCount)
    forEachReducedElement(inputShape: inputShape, reduced: reduced) { i, o in
        sums[o] &+= Int32(input[i])
    }
    return zip(inputShape, reduced).reduce(1) { $1.1 ? $0 * $1.0 : $0 }
}

/// Conversion of an image to the flat HWC buffers a model's input tensor holds.
///
/// Every helper works on the 8-bit scale: samples of 16-bit images are first mapped to
/// 0...255 (see `Image.to8Bit()`). Channel count is kept as is: convert with
/// `converted(to: .rgb)` first when the model wants three channels.
extension Image {
    /// The samples normalised to float32, HWC order.
    public func floatTensor(_ normalization: PixelNormalization = .raw) throws(ImageError) -> [Float] {
        let values = to8Bit().pixels8!
        var out = [Float](repeating: 0, count: values.count)
        switch normalization {
        case .meanStd(let mean, let std):
            let (m, s) = try perChannel(mean, std)
            let c = channels
            for i in 0..<values.count { out[i] = (Float(values[i]) - m[i % c]) / s[i % c] }
        case .range(let lower, let upper):
            guard lower.isFinite, upper.isFinite else { throw .invalidArgument("range \(lower)...\(upper) must be finite") }
            let span = upper - lower
            for i in 0..<values.count { out[i] = Float(values[i]) / 255 * span + lower }
        }
        return out
    }

    /// `(sample - mean[c]) / std[c]` per channel, as float32 (see `PixelNormalization.meanStd`).
    public func floatTensor(mean: [Float], std: [Float]) throws(ImageError) -> [Float] {
        try floatTensor(.meanStd(mean: mean, std: std))
    }

    /// The 8-bit samples, HWC order, for models whose input is raw uint8 pixels.
    public func uint8Tensor() -> [UInt8] { to8Bit().pixels8! }

    /// Samples normalised as `normalization` says, then quantised with the input tensor's
    /// parameters: `clamp(round(x / scale) + zeroPoint, -128, 127)`, the division in double
    /// precision and rounding half away from zero, as TFLite's QUANTIZE does.
    public func int8Tensor(scale: Float, zeroPoint: Int, normalization: PixelNormalization = .raw) throws(ImageError) -> [Int8] {
        try quantized(scale: scale, zeroPoint: zeroPoint, normalization: normalization, range: -128...127).map { Int8($0) }
    }

    /// Like `int8Tensor`, for uint8-quantised inputs: clamped to 0...255.
    public func quantizedUInt8Tensor(scale: Float, zeroPoint: Int, normalization: PixelNormalization = .raw) throws(ImageError) -> [UInt8] {
        try quantized(scale: scale, zeroPoint: zeroPoint, normalization: normalization, range: 0...255).map { UInt8($0) }
    }

    private func quantized(scale: Float, zeroPoint: Int, normalization: PixelNormalization, range: ClosedRange<Int>) throws(ImageError) -> [Int] {
        guard scale > 0, scale.isFinite else { throw .invalidArgument("quantisation scale \(scale) must be positive and finite") }
        guard abs(zeroPoint) <= 1 << 16 else { throw .invalidArgument("zero point \(zeroPoint) is out of range") }
        let s = Double(scale)
        return try floatTensor(normalization).map { x in
            let q = (Double(x) / s).rounded(.toNearestOrAwayFromZero)
            let clamped = max(Double(range.lowerBound - zeroPoint), min(Double(range.upperBound - zeroPoint), q))
            return Int(clamped) + zeroPoint
        }
    }

    private func perChannel(_ mean: [Float], _ std: [Float]) throws(ImageError) -> ([Float], [Float]) {
        let c = channels
        guard mean.count == 1 || mean.count == c, std.count == 1 || std.count == c else {
            throw .invalidArgument("mean has \(mean.count) and std \(std.count) values; give 1 or \(c) (one per channel)")
        }
        guard std.allSatisfy({ $0 != 0 && $0.isFinite }), mean.allSatisfy(\.isFinite) else {
            throw .invalidArgument("std values must be finite and non-zero, means finite")
        }
        return (mean.count == 1 ? Array(repeating: mean[0], count: c) : mean,
                std.count == 1 ? Array(repeating: std[0], count: c) : std)
    }
}

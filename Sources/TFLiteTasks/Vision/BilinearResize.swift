/// Resizes 8-bit interleaved pixels the way Pillow's `Image.resize(size, BILINEAR)` does, so
/// that inputs match those the reference results were computed from: a separable triangle
/// filter widened by the scale factor when shrinking (antialiasing), weights normalised and
/// turned into 22-bit fixed point, horizontal pass first, each pass rounded to 8 bits.
enum BilinearResize {
    private static let precisionBits = 22

    /// Per output position: the first input index and the fixed-point weights.
    private static func coefficients(inSize: Int, outSize: Int) -> [(start: Int, weights: [Int32])] {
        let scale = Double(inSize) / Double(outSize)
        let filterScale = max(scale, 1)
        let support = 1.0 * filterScale
        let inverse = 1.0 / filterScale
        var result: [(Int, [Int32])] = []
        result.reserveCapacity(outSize)
        for o in 0..<outSize {
            let center = (Double(o) + 0.5) * scale
            let lo = max(Int(center - support + 0.5), 0)
            let hi = min(Int(center + support + 0.5), inSize)
            var w: [Double] = []
            var total = 0.0
            for x in lo..<max(hi, lo) {
                var t = (Double(x) - center + 0.5) * inverse
                if t < 0 { t = -t }
                let v = t < 1 ? 1 - t : 0
                w.append(v)
                total += v
            }
            let fixed = w.map { v -> Int32 in
                let k = total != 0 ? v / total : v
                let scaled = k * Double(1 << precisionBits)
                return Int32(scaled < 0 ? scaled - 0.5 : scaled + 0.5)
            }
            result.append((lo, fixed))
        }
        return result
    }

    /// `pixels` (`width x height x channels`) resized to `newWidth x newHeight`.
    static func resize(_ pixels: [UInt8], width: Int, height: Int, channels c: Int,
                       to newWidth: Int, _ newHeight: Int) -> [UInt8] {
        if width == newWidth && height == newHeight { return pixels }
        let half = Int64(1) << (precisionBits - 1)
        func clip(_ v: Int64) -> UInt8 { UInt8(clamping: v >> Int64(precisionBits)) }
        // Horizontal pass.
        var mid = pixels
        var midWidth = width
        if newWidth != width {
            let cx = coefficients(inSize: width, outSize: newWidth)
            mid = [UInt8](repeating: 0, count: newWidth * height * c)
            for y in 0..<height {
                for (o, k) in cx.enumerated() {
                    for ch in 0..<c {
                        var s = half
                        for (j, w) in k.weights.enumerated() {
                            s += Int64(pixels[(y * width + k.start + j) * c + ch]) * Int64(w)
                        }
                        mid[(y * newWidth + o) * c + ch] = clip(s)
                    }
                }
            }
            midWidth = newWidth
        }
        guard newHeight != height else { return mid }
        let cy = coefficients(inSize: height, outSize: newHeight)
        var out = [UInt8](repeating: 0, count: midWidth * newHeight * c)
        for (o, k) in cy.enumerated() {
            for x in 0..<midWidth {
                for ch in 0..<c {
                    var s = half
                    for (j, w) in k.weights.enumerated() {
                        s += Int64(mid[((k.start + j) * midWidth + x) * c + ch]) * Int64(w)
                    }
                    out[(o * midWidth + x) * c + ch] = clip(s)
                }
            }
        }
        return out
    }
}

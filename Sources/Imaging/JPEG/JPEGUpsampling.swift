/// Brings a subsampled JPEG component plane to full resolution the way libjpeg does with
/// "fancy" upsampling: a triangle filter (3/4 nearer sample, 1/4 farther) for 2:1 ratios,
/// with libjpeg's alternating rounding biases; edge samples are replicated, and other
/// ratios use pixel replication.
enum JPEGUpsampling {
    /// Upsamples `plane` (`width` x `height` real samples, row stride `stride`) by integer
    /// factors `fx`, `fy` into a `outWidth` x `outHeight` plane (cropping the excess).
    static func upsample(_ plane: [UInt8], width: Int, height: Int, stride: Int, fx: Int, fy: Int,
                         outWidth: Int, outHeight: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: outWidth * outHeight)
        plane.withUnsafeBufferPointer { inp in
            out.withUnsafeMutableBufferPointer { o in
                // libjpeg applies the triangle filter only when the plane is wider than 2.
                let fancyH = fx == 2 && width > 2
                if fx == 1 && fy == 1 {
                    for y in 0..<outHeight {
                        (o.baseAddress! + y * outWidth).update(from: inp.baseAddress! + y * stride, count: outWidth)
                    }
                } else if fancyH && fy == 2 {
                    h2v2(inp, width, height, stride, o, outWidth, outHeight)
                } else if fancyH && fy == 1 {
                    h2v1(inp, width, stride, o, outWidth, outHeight)
                } else if fx == 1 && fy == 2 {
                    h1v2(inp, height, stride, o, outWidth, outHeight)
                } else {
                    for y in 0..<outHeight {
                        let row = min(y / fy, height - 1) * stride
                        for x in 0..<outWidth { o[y * outWidth + x] = inp[row + min(x / fx, width - 1)] }
                    }
                }
            }
        }
        return out
    }

    private static func h2v1(_ inp: UnsafeBufferPointer<UInt8>, _ width: Int, _ stride: Int,
                             _ o: UnsafeMutableBufferPointer<UInt8>, _ outWidth: Int, _ outHeight: Int) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * width) { row in
            for y in 0..<outHeight {
                let s = inp.baseAddress! + y * stride
                for i in 0..<width {
                    let here = Int(s[i]) &* 3
                    let left = Int(s[max(i - 1, 0)]), right = Int(s[min(i + 1, width - 1)])
                    // Weighted means of 0...255 values: always 0...255.
                    row[2 * i] = UInt8(truncatingIfNeeded: (here &+ left &+ 1) >> 2)
                    row[2 * i + 1] = UInt8(truncatingIfNeeded: (here &+ right &+ 2) >> 2)
                }
                // The outermost outputs copy the edge sample exactly.
                row[0] = s[0]
                row[2 * width - 1] = s[width - 1]
                (o.baseAddress! + y * outWidth).update(from: row.baseAddress!, count: outWidth)
            }
        }
    }

    private static func h1v2(_ inp: UnsafeBufferPointer<UInt8>, _ height: Int, _ stride: Int,
                             _ o: UnsafeMutableBufferPointer<UInt8>, _ outWidth: Int, _ outHeight: Int) {
        for y in 0..<outHeight {
            let r = min(y >> 1, height - 1)
            let upper = y & 1 == 0
            let n = upper ? max(r - 1, 0) : min(r + 1, height - 1)
            let bias = upper ? 1 : 2
            let near = inp.baseAddress! + r * stride, far = inp.baseAddress! + n * stride
            let out = o.baseAddress! + y * outWidth
            for x in 0..<outWidth {
                out[x] = UInt8(truncatingIfNeeded: (Int(near[x]) &* 3 &+ Int(far[x]) &+ bias) >> 2)
            }
        }
    }

    private static func h2v2(_ inp: UnsafeBufferPointer<UInt8>, _ width: Int, _ height: Int, _ stride: Int,
                             _ o: UnsafeMutableBufferPointer<UInt8>, _ outWidth: Int, _ outHeight: Int) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: width) { sums in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * width) { row in
                for y in 0..<outHeight {
                    // Vertical step: 3 x the nearer input row + the farther one (edge rows repeat).
                    let r = min(y >> 1, height - 1)
                    let n = y & 1 == 0 ? max(r - 1, 0) : min(r + 1, height - 1)
                    let near = inp.baseAddress! + r * stride, far = inp.baseAddress! + n * stride
                    for i in 0..<width { sums[i] = Int(near[i]) &* 3 &+ Int(far[i]) }
                    // Horizontal step on the column sums, with libjpeg's biases of 8 and 7.
                    for i in 0..<width {
                        let here = sums[i] &* 3
                        let left = sums[max(i - 1, 0)], right = sums[min(i + 1, width - 1)]
                        row[2 * i] = UInt8(truncatingIfNeeded: (here &+ left &+ 8) >> 4)
                        row[2 * i + 1] = UInt8(truncatingIfNeeded: (here &+ right &+ 7) >> 4)
                    }
                    row[0] = UInt8(truncatingIfNeeded: (sums[0] &* 4 &+ 8) >> 4)
                    row[2 * width - 1] = UInt8(truncatingIfNeeded: (sums[width - 1] &* 4 &+ 7) >> 4)
                    (o.baseAddress! + y * outWidth).update(from: row.baseAddress!, count: outWidth)
                }
            }
        }
    }
}

/// YCbCr to RGB conversion as in JFIF / ITU-R BT.601, in libjpeg's 16-bit fixed point
/// (tables of rounded products), so results match libjpeg exactly.
enum JPEGColor {
    private static let scaleBits = 16
    private static func fix(_ x: Double) -> Int { Int(x * Double(1 << scaleBits) + 0.5) }
    private static let half = 1 << (scaleBits - 1)

    private static let crToR: [Int] = (0..<256).map { (fix(1.40200) * ($0 - 128) + half) >> scaleBits }
    private static let cbToB: [Int] = (0..<256).map { (fix(1.77200) * ($0 - 128) + half) >> scaleBits }
    private static let crToG: [Int] = (0..<256).map { -fix(0.71414) * ($0 - 128) }
    private static let cbToG: [Int] = (0..<256).map { -fix(0.34414) * ($0 - 128) + half }

    /// Interleaves three full-resolution planes into RGB, converting from YCbCr unless
    /// `isRGB` says the planes already hold R, G, B.
    static func interleave(_ y: [UInt8], _ cb: [UInt8], _ cr: [UInt8], count: Int, isRGB: Bool) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count * 3)
        out.withUnsafeMutableBufferPointer { o in
            y.withUnsafeBufferPointer { yp in
                cb.withUnsafeBufferPointer { bp in
                    cr.withUnsafeBufferPointer { rp in
                        if isRGB {
                            for i in 0..<count {
                                o[3 * i] = yp[i]
                                o[3 * i + 1] = bp[i]
                                o[3 * i + 2] = rp[i]
                            }
                            return
                        }
                        crToR.withUnsafeBufferPointer { crR in
                            cbToB.withUnsafeBufferPointer { cbB in
                                crToG.withUnsafeBufferPointer { crG in
                                    cbToG.withUnsafeBufferPointer { cbG in
                                        for i in 0..<count {
                                            let l = Int(yp[i]), b = Int(bp[i]), r = Int(rp[i])
                                            o[3 * i] = clamp(l &+ crR[r])
                                            o[3 * i + 1] = clamp(l &+ ((cbG[b] &+ crG[r]) >> scaleBits))
                                            o[3 * i + 2] = clamp(l &+ cbB[b])
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    @inline(__always)
    private static func clamp(_ v: Int) -> UInt8 { v < 0 ? 0 : (v > 255 ? 255 : UInt8(truncatingIfNeeded: v)) }
}

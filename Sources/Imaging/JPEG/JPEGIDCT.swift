/// The accurate integer inverse DCT of the IJG library ("ISLOW"): the Loeffler-Ligtenberg-
/// Moschytz factorisation with 13-bit fixed-point constants, two fractional bits kept
/// between the column and row passes. Matching it makes our pixels equal to libjpeg's.
/// Arithmetic wraps instead of trapping, so hostile coefficients cannot crash it.
enum JPEGIDCT {
    private static let constBits = 13
    private static let pass1Bits = 2

    /// `x` in 13-bit fixed point, rounded.
    private static func fix(_ x: Double) -> Int { Int(x * Double(1 << constBits) + 0.5) }

    private static let f0_298631336 = fix(0.298631336)
    private static let f0_390180644 = fix(0.390180644)
    private static let f0_541196100 = fix(0.541196100)
    private static let f0_765366865 = fix(0.765366865)
    private static let f0_899976223 = fix(0.899976223)
    private static let f1_175875602 = fix(1.175875602)
    private static let f1_501321110 = fix(1.501321110)
    private static let f1_847759065 = fix(1.847759065)
    private static let f1_961570560 = fix(1.961570560)
    private static let f2_053119869 = fix(2.053119869)
    private static let f2_562915447 = fix(2.562915447)
    private static let f3_072711026 = fix(3.072711026)

    @inline(__always)
    private static func descale(_ x: Int, _ n: Int) -> Int { (x &+ (1 << (n - 1))) >> n }

    /// One 8-point inverse transform of `x0...x7`; returns the outputs before descaling.
    @inline(__always)
    private static func butterfly(_ x0: Int, _ x1: Int, _ x2: Int, _ x3: Int, _ x4: Int, _ x5: Int, _ x6: Int, _ x7: Int)
        -> (Int, Int, Int, Int, Int, Int, Int, Int) {
        // Even part: inputs 0, 2, 4, 6.
        let z1 = (x2 &+ x6) &* f0_541196100
        let t2 = z1 &+ x6 &* -f1_847759065
        let t3 = z1 &+ x2 &* f0_765366865
        let t0 = (x0 &+ x4) << constBits
        let t1 = (x0 &- x4) << constBits
        let t10 = t0 &+ t3, t13 = t0 &- t3, t11 = t1 &+ t2, t12 = t1 &- t2
        // Odd part: inputs 1, 3, 5, 7.
        var o0 = x7, o1 = x5, o2 = x3, o3 = x1
        var a = o0 &+ o3, b = o1 &+ o2, c = o0 &+ o2, d = o1 &+ o3
        let z5 = (c &+ d) &* f1_175875602
        o0 = o0 &* f0_298631336
        o1 = o1 &* f2_053119869
        o2 = o2 &* f3_072711026
        o3 = o3 &* f1_501321110
        a = a &* -f0_899976223
        b = b &* -f2_562915447
        c = c &* -f1_961570560 &+ z5
        d = d &* -f0_390180644 &+ z5
        o0 = o0 &+ a &+ c
        o1 = o1 &+ b &+ d
        o2 = o2 &+ b &+ c
        o3 = o3 &+ a &+ d
        return (t10 &+ o3, t11 &+ o2, t12 &+ o1, t13 &+ o0, t13 &- o0, t12 &- o1, t11 &- o2, t10 &- o3)
    }

    /// Dequantises and inverse-transforms one block, writing 8x8 level-shifted, clamped
    /// samples to `out` (row stride `stride`).
    static func transform(_ coefficients: UnsafePointer<Int16>, quant: UnsafePointer<Int32>,
                          out: UnsafeMutablePointer<UInt8>, stride: Int) {
        var workspace = (Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0),
                         Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0),
                         Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0),
                         Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0),
                         Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0),
                         Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0),
                         Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0),
                         Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0), Int(0))
        withUnsafeMutableBytes(of: &workspace) { raw in
            let ws = raw.baseAddress!.assumingMemoryBound(to: Int.self)
            // Pass 1: columns, keeping pass1Bits extra fractional bits.
            for col in 0..<8 {
                func q(_ row: Int) -> Int { Int(coefficients[row * 8 + col]) &* Int(quant[row * 8 + col]) }
                if coefficients[8 + col] == 0 && coefficients[16 + col] == 0 && coefficients[24 + col] == 0
                    && coefficients[32 + col] == 0 && coefficients[40 + col] == 0 && coefficients[48 + col] == 0
                    && coefficients[56 + col] == 0 {
                    let dc = q(0) << pass1Bits
                    for row in 0..<8 { ws[row * 8 + col] = dc }
                    continue
                }
                let r = butterfly(q(0), q(1), q(2), q(3), q(4), q(5), q(6), q(7))
                let shift = constBits - pass1Bits
                ws[col] = descale(r.0, shift)
                ws[8 + col] = descale(r.1, shift)
                ws[16 + col] = descale(r.2, shift)
                ws[24 + col] = descale(r.3, shift)
                ws[32 + col] = descale(r.4, shift)
                ws[40 + col] = descale(r.5, shift)
                ws[48 + col] = descale(r.6, shift)
                ws[56 + col] = descale(r.7, shift)
            }
            // Pass 2: rows, removing the scale factor 8 and the extra bits, adding 128.
            let shift = constBits + pass1Bits + 3
            for row in 0..<8 {
                let w = ws + row * 8
                let o = out + row * stride
                if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
                    // Only the DC term: the full transform would give this same value eight times.
                    let v = clamp(descale(w[0], pass1Bits + 3))
                    for i in 0..<8 { o[i] = v }
                    continue
                }
                let r = butterfly(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])
                o[0] = clamp(descale(r.0, shift))
                o[1] = clamp(descale(r.1, shift))
                o[2] = clamp(descale(r.2, shift))
                o[3] = clamp(descale(r.3, shift))
                o[4] = clamp(descale(r.4, shift))
                o[5] = clamp(descale(r.5, shift))
                o[6] = clamp(descale(r.6, shift))
                o[7] = clamp(descale(r.7, shift))
            }
        }
    }

    @inline(__always)
    private static func clamp(_ v: Int) -> UInt8 {
        let s = v &+ 128
        return s < 0 ? 0 : (s > 255 ? 255 : UInt8(truncatingIfNeeded: s))
    }
}

/// CONV_3D and CONV_3D_TRANSPOSE in float32 (reference loops).
public enum Conv3D {
    /// CONV_3D: `input` `[n, d, h, w, cin]`, `filter` `[fd, fh, fw, cin, cout]`, optional
    /// `bias` `[cout]`, `output` `[n, od, oh, ow, cout]`.
    public static func forward(_ p: Conv3DParams, input: UnsafePointer<Float>, inputShape: [Int],
                               filter: UnsafePointer<Float>, filterShape: [Int], bias: UnsafePointer<Float>?,
                               output: UnsafeMutablePointer<Float>, outputShape: [Int]) {
        let (n, id, ih, iw, cin) = (inputShape[0], inputShape[1], inputShape[2], inputShape[3], inputShape[4])
        let (fd, fh, fw, cout) = (filterShape[0], filterShape[1], filterShape[2], filterShape[4])
        let (od, oh, ow) = (outputShape[1], outputShape[2], outputShape[3])
        for b in 0..<n {
            for z in 0..<od {
                for y in 0..<oh {
                    for x in 0..<ow {
                        let outBase = (((b * od + z) * oh + y) * ow + x) * cout
                        for oc in 0..<cout {
                            var sum: Float = bias?[oc] ?? 0
                            p.forEachTap(at: (z, y, x), filter: (fd, fh, fw), inside: (id, ih, iw)) { kz, ky, kx, iz, iy, ix in
                                let inBase = (((b * id + iz) * ih + iy) * iw + ix) * cin
                                let fBase = ((kz * fh + ky) * fw + kx) * cin * cout + oc
                                for ic in 0..<cin { sum += input[inBase + ic] * filter[fBase + ic * cout] }
                            }
                            output[outBase + oc] = p.activation.clamp(sum)
                        }
                    }
                }
            }
        }
    }

    /// CONV_3D_TRANSPOSE: `input` `[n, d, h, w, cin]`, `filter` `[fd, fh, fw, cout, cin]`,
    /// optional `bias` `[cout]`, `output` `[n, od, oh, ow, cout]`. Each input element is
    /// scattered through the filter into the output.
    public static func transpose(_ p: Conv3DParams, input: UnsafePointer<Float>, inputShape: [Int],
                                 filter: UnsafePointer<Float>, filterShape: [Int], bias: UnsafePointer<Float>?,
                                 output: UnsafeMutablePointer<Float>, outputShape: [Int]) {
        let (n, id, ih, iw, cin) = (inputShape[0], inputShape[1], inputShape[2], inputShape[3], inputShape[4])
        let (fd, fh, fw, cout) = (filterShape[0], filterShape[1], filterShape[2], filterShape[3])
        let (od, oh, ow) = (outputShape[1], outputShape[2], outputShape[3])
        output.update(repeating: 0, count: n * od * oh * ow * cout)
        for b in 0..<n {
            for z in 0..<id {
                for y in 0..<ih {
                    for x in 0..<iw {
                        let inBase = (((b * id + z) * ih + y) * iw + x) * cin
                        p.forEachTap(at: (z, y, x), filter: (fd, fh, fw), inside: (od, oh, ow)) { kz, ky, kx, oz, oy, ox in
                            let outBase = (((b * od + oz) * oh + oy) * ow + ox) * cout
                            let fBase = ((kz * fh + ky) * fw + kx) * cout * cin
                            for oc in 0..<cout {
                                var sum: Float = 0
                                for ic in 0..<cin { sum += input[inBase + ic] * filter[fBase + oc * cin + ic] }
                                output[outBase + oc] += sum
                            }
                        }
                    }
                }
            }
        }
        let total = n * od * oh * ow
        for i in 0..<total {
            for oc in 0..<cout {
                output[i * cout + oc] = p.activation.clamp(output[i * cout + oc] + (bias?[oc] ?? 0))
            }
        }
    }
}

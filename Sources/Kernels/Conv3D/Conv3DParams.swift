/// The geometry of a 3-D convolution (or its transpose) over NDHWC tensors: per spatial axis
/// (depth, height, width) the stride, dilation and leading padding, worked out once at prepare.
public struct Conv3DParams: Sendable {
    /// Strides along depth, height, width.
    let s: [Int]
    let dilation: [Int]
    /// Padding before each spatial axis (the padding after it is implied by the sizes).
    let padBefore: [Int]
    /// The clamp of the fused activation.
    public let activation: ActivationRange<Float>

    /// Geometry for `strides`, `dilations` and leading paddings given per axis as `[d, h, w]`.
    public init(strides: [Int], dilations: [Int], paddingBefore: [Int], activation: ActivationRange<Float>) {
        s = strides
        dilation = dilations
        padBefore = paddingBefore
        self.activation = activation
    }

    /// Plans a CONV_3D: output spatial sizes and leading paddings for `input` (`[d, h, w]`) and
    /// `filter` (`[d, h, w]`) sizes; nil when a stride or dilation is not positive or a VALID
    /// window does not fit.
    public static func forward(padding: PaddingScheme, input: [Int], filter: [Int], strides: [Int], dilations: [Int],
                               activation: ActivationRange<Float>) -> (params: Conv3DParams, output: [Int])? {
        var output: [Int] = [], before: [Int] = []
        for a in 0..<3 {
            guard let o = padding.outputSize(input: input[a], filter: filter[a], stride: strides[a], dilation: dilations[a])
            else { return nil }
            output.append(o)
            before.append(padding.padding(input: input[a], filter: filter[a], stride: strides[a], dilation: dilations[a], output: o).before)
        }
        return (Conv3DParams(strides: strides, dilations: dilations, paddingBefore: before, activation: activation), output)
    }

    /// Plans a CONV_3D_TRANSPOSE producing spatial sizes `output` from `input`: the padding
    /// is that of the forward convolution taking `output` back to `input`.
    public static func transpose(padding: PaddingScheme, input: [Int], output: [Int], filter: [Int], strides: [Int],
                                 dilations: [Int], activation: ActivationRange<Float>) -> Conv3DParams? {
        guard strides.allSatisfy({ $0 > 0 }), dilations.allSatisfy({ $0 > 0 }) else { return nil }
        let before = (0..<3).map {
            padding.padding(input: output[$0], filter: filter[$0], stride: strides[$0], dilation: dilations[$0], output: input[$0]).before
        }
        return Conv3DParams(strides: strides, dilations: dilations, paddingBefore: before, activation: activation)
    }
}

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
                            for kz in 0..<fd {
                                let iz = z * p.s[0] - p.padBefore[0] + kz * p.dilation[0]
                                if iz < 0 || iz >= id { continue }
                                for ky in 0..<fh {
                                    let iy = y * p.s[1] - p.padBefore[1] + ky * p.dilation[1]
                                    if iy < 0 || iy >= ih { continue }
                                    for kx in 0..<fw {
                                        let ix = x * p.s[2] - p.padBefore[2] + kx * p.dilation[2]
                                        if ix < 0 || ix >= iw { continue }
                                        let inBase = (((b * id + iz) * ih + iy) * iw + ix) * cin
                                        let fBase = ((kz * fh + ky) * fw + kx) * cin * cout + oc
                                        for ic in 0..<cin { sum += input[inBase + ic] * filter[fBase + ic * cout] }
                                    }
                                }
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
                        for kz in 0..<fd {
                            let oz = z * p.s[0] - p.padBefore[0] + kz * p.dilation[0]
                            if oz < 0 || oz >= od { continue }
                            for ky in 0..<fh {
                                let oy = y * p.s[1] - p.padBefore[1] + ky * p.dilation[1]
                                if oy < 0 || oy >= oh { continue }
                                for kx in 0..<fw {
                                    let ox = x * p.s[2] - p.padBefore[2] + kx * p.dilation[2]
                                    if ox < 0 || ox >= ow { continue }
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

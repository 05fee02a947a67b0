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

    /// Calls `body(kz, ky, kx, z, y, x)`, depth first, for each tap of a `filter`-sized window
    /// at `position` whose strided, padded and dilated place (z, y, x) lies inside `extent`: the
    /// input's sizes for CONV_3D, which gathers, the output's for the transpose, which scatters.
    @inline(__always)
    func forEachTap(at position: (Int, Int, Int), filter: (Int, Int, Int), inside extent: (Int, Int, Int),
                    _ body: (_ kz: Int, _ ky: Int, _ kx: Int, _ z: Int, _ y: Int, _ x: Int) -> Void) {
        for kz in 0..<filter.0 {
            let z = position.0 * s[0] - padBefore[0] + kz * dilation[0]
            if z < 0 || z >= extent.0 { continue }
            for ky in 0..<filter.1 {
                let y = position.1 * s[1] - padBefore[1] + ky * dilation[1]
                if y < 0 || y >= extent.1 { continue }
                for kx in 0..<filter.2 {
                    let x = position.2 * s[2] - padBefore[2] + kx * dilation[2]
                    if x < 0 || x >= extent.2 { continue }
                    body(kz, ky, kx, z, y, x)
                }
            }
        }
    }
}

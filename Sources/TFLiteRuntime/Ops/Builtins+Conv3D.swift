import Kernels

/// CONV_3D and CONV_3D_TRANSPOSE in float32 over NDHWC tensors.
extension OpRegistry {
    mutating func registerConv3DOps() {
        register(.conv3d, types: [.float32], prepareConv3D)
        register(.conv3dTranspose, types: [.float32], outputTypes: .sameAs(input: 2), prepareConv3DTranspose)
    }
}

private struct Conv3DSettings {
    let padding: PaddingScheme
    let strides: [Int], dilations: [Int]
    let activation: ActivationRange<Float>
}

private func conv3DSettings(_ ctx: PrepareContext) throws(InterpreterError) -> Conv3DSettings {
    guard case .conv3DOptions(let o)? = ctx.options else { throw ctx.invalid("missing Conv3DOptions") }
    let strides = [o.strideD, o.strideH, o.strideW].map(Int.init)
    let dilations = [o.dilationDFactor, o.dilationHFactor, o.dilationWFactor].map(Int.init)
    guard strides.allSatisfy({ $0 > 0 }), dilations.allSatisfy({ $0 > 0 }) else {
        throw ctx.invalid("strides \(strides) and dilations \(dilations) must be positive")
    }
    return Conv3DSettings(padding: ctx.paddingScheme(o.padding), strides: strides, dilations: dilations,
                          activation: try ctx.floatActivation(o.fusedActivationFunction))
}

/// Checks the optional bias (`[channels]`, float32) at input `i`; returns its index or nil.
private func conv3DBias(_ ctx: PrepareContext, input i: Int, channels: Int) throws(InterpreterError) -> Int? {
    guard let bias = ctx.optionalInput(i) else { return nil }
    guard bias.type == .float32, bias.elementCount == channels else {
        throw ctx.invalid("bias must be float32 with \(channels) elements, is \(bias.type) \(bias.shape)")
    }
    return bias.index
}

private func prepareConv3D(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 2...3, outputs: 1...1)
    let x = try ctx.input(0), f = try ctx.input(1), y = try ctx.output(0)
    guard x.type == .float32, f.type == .float32, y.type == .float32 else {
        throw ctx.unsupported("types \(x.type), \(f.type) -> \(y.type); only float32")
    }
    guard x.rank == 5, f.rank == 5, f.shape[3] == x.shape[4] else {
        throw ctx.invalid("input \(x.shape) must be NDHWC and filter \(f.shape) [d, h, w, \(x.rank == 5 ? x.shape[4] : 0), out]")
    }
    let s = try conv3DSettings(ctx)
    guard let (params, spatial) = Conv3DParams.forward(padding: s.padding, input: Array(x.shape[1...3]), filter: Array(f.shape[0...2]),
                                                       strides: s.strides, dilations: s.dilations, activation: s.activation)
    else { throw ctx.invalid("filter \(f.shape) does not fit input \(x.shape) with VALID padding") }
    let outShape = [x.shape[0]] + spatial + [f.shape[4]]
    try ctx.setOutputShape(0, outShape)
    let bi = try conv3DBias(ctx, input: 2, channels: f.shape[4])
    let xs = x.shape, fs = f.shape, xi = x.index, fi = f.index, yi = y.index
    return { c in
        Conv3D.forward(params, input: c.data(xi, as: Float.self), inputShape: xs, filter: c.data(fi, as: Float.self), filterShape: fs,
                       bias: bi.map { UnsafePointer(c.data($0, as: Float.self)) }, output: c.data(yi, as: Float.self), outputShape: outShape)
    }
}

private func prepareConv3DTranspose(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...4, outputs: 1...1)
    let f = try ctx.input(1), x = try ctx.input(2), y = try ctx.output(0)
    guard x.type == .float32, f.type == .float32, y.type == .float32 else {
        throw ctx.unsupported("types \(x.type), \(f.type) -> \(y.type); only float32")
    }
    let outShape = try ctx.constantIntegers(input: 0)
    guard x.rank == 5, f.rank == 5, outShape.count == 5, f.shape[4] == x.shape[4], f.shape[3] == outShape[4],
          outShape[0] == x.shape[0], outShape.allSatisfy({ $0 >= 0 }) else {
        throw ctx.invalid("output shape \(outShape), filter \(f.shape) [d, h, w, out, in] and input \(x.shape) do not agree")
    }
    let s = try conv3DSettings(ctx)
    guard let params = Conv3DParams.transpose(padding: s.padding, input: Array(x.shape[1...3]), output: Array(outShape[1...3]),
                                              filter: Array(f.shape[0...2]), strides: s.strides, dilations: s.dilations,
                                              activation: s.activation)
    else { throw ctx.invalid("strides and dilations must be positive") }
    try ctx.setOutputShape(0, outShape)
    let bi = try conv3DBias(ctx, input: 3, channels: outShape[4])
    let xs = x.shape, fs = f.shape, xi = x.index, fi = f.index, yi = y.index
    return { c in
        Conv3D.transpose(params, input: c.data(xi, as: Float.self), inputShape: xs, filter: c.data(fi, as: Float.self), filterShape: fs,
                         bias: bi.map { UnsafePointer(c.data($0, as: Float.self)) }, output: c.data(yi, as: Float.self), outputShape: outShape)
    }
}

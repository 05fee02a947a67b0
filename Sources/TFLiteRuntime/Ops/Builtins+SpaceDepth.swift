import Kernels

/// DEPTH_TO_SPACE, SPACE_TO_DEPTH, SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND: moving NHWC pixels
/// between the spatial axes and the channel or batch axis.
extension OpRegistry {
    mutating func registerSpaceDepthOps() {
        let all = OpRegistry.elementMovingTypes
        register(.depthToSpace, types: all, prepareDepthToSpace)
        register(.spaceToDepth, types: all, prepareSpaceToDepth)
        register(.spaceToBatchNd, types: all, prepareSpaceToBatch)
        register(.batchToSpaceNd, types: all, prepareBatchToSpace)
    }
}

/// The block size of DEPTH_TO_SPACE / SPACE_TO_DEPTH, required positive.
private func blockSize(_ ctx: PrepareContext) throws(InterpreterError) -> Int {
    let b: Int32
    switch ctx.options {
    case .depthToSpaceOptions(let o)?: b = o.blockSize
    case .spaceToDepthOptions(let o)?: b = o.blockSize
    default: throw ctx.invalid("missing block size options")
    }
    guard b > 0 else { throw ctx.invalid("block_size \(b) must be positive") }
    return Int(b)
}

private func prepareDepthToSpace(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0)
    let s = try ctx.nhwc(x, role: "input"), bs = try blockSize(ctx)
    let (area, o) = bs.multipliedReportingOverflow(by: bs)
    guard !o, s.channels % area == 0 else { throw ctx.invalid("channels \(s.channels) not divisible by block_size² (block_size \(bs))") }
    let shape = [s.batch, s.height * bs, s.width * bs, s.channels / area]
    guard checkedProduct([s.height, s.width, bs, bs]) != nil else { throw ctx.invalid("output shape overflows") }
    try ctx.setOutputShape(0, shape)
    return try ctx.indexMapCopyKernel { DepthSpace.planDepthToSpace(inputShape: s, blockSize: bs, elementSize: $0) }
}

private func prepareSpaceToDepth(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    let x = try ctx.input(0)
    let s = try ctx.nhwc(x, role: "input"), bs = try blockSize(ctx)
    guard s.height % bs == 0, s.width % bs == 0 else {
        throw ctx.invalid("height \(s.height) and width \(s.width) must be multiples of block_size \(bs)")
    }
    guard let depth = checkedProduct([s.channels, bs, bs]) else { throw ctx.invalid("output depth overflows") }
    try ctx.setOutputShape(0, [s.batch, s.height / bs, s.width / bs, depth])
    return try ctx.indexMapCopyKernel { DepthSpace.planSpaceToDepth(inputShape: s, blockSize: bs, elementSize: $0) }
}

/// The NHWC view of a SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND input (rank 3 is `[N, H, 1, C]`)
/// and its block shape: two positive values for rank 4, one (width block 1) for rank 3.
private func blockGeometry(_ ctx: PrepareContext, _ x: TensorInfo) throws(InterpreterError) -> (NHWC, Int, Int, Int) {
    guard x.rank == 3 || x.rank == 4 else { throw ctx.invalid("input must have rank 3 or 4, has shape \(x.shape)") }
    let spatial = x.rank - 2
    let block = try ctx.constantIntegers(input: 1)
    guard block.count == spatial, block.allSatisfy({ $0 > 0 }) else {
        throw ctx.invalid("block_shape \(block) must be \(spatial) positive values")
    }
    let view = NHWC(batch: x.shape[0], height: x.shape[1], width: x.rank == 4 ? x.shape[2] : 1, channels: x.shape[x.rank - 1])
    return (view, block[0], spatial == 2 ? block[1] : 1, spatial)
}

/// The model's shape for an NHWC view (dropping the unit width of a rank-3 tensor).
private func modelShape(_ s: NHWC, rank: Int) -> [Int] {
    rank == 4 ? [s.batch, s.height, s.width, s.channels] : [s.batch, s.height, s.channels]
}

private func prepareSpaceToBatch(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    let x = try ctx.input(0), y = try ctx.output(0)
    let (s, bh, bw, spatial) = try blockGeometry(ctx, x)
    let pads = try ctx.constantPairs(input: 2, rows: spatial, what: "paddings")
    let padW = spatial == 2 ? pads[1] : PadAmount(before: 0, after: 0)
    let h = s.height + pads[0].before + pads[0].after, w = s.width + padW.before + padW.after
    guard h % bh == 0, w % bw == 0 else {
        throw ctx.invalid("padded spatial extents \(h)x\(w) are not multiples of the block \(bh)x\(bw)")
    }
    guard let batch = checkedProduct([s.batch, bh, bw]) else { throw ctx.invalid("output batch overflows") }
    let out = NHWC(batch: batch, height: h / bh, width: w / bw, channels: s.channels)
    try ctx.setOutputShape(0, modelShape(out, rank: x.rank))
    let size = try ctx.elementSize(x, role: "input")
    // Padding is real zero: the zero point of a quantised tensor.
    var fill = [UInt8](repeating: 0, count: size)
    if x.type == .int8 || x.type == .uInt8 || x.type == .int16 {
        let zp = try ctx.affine(y, role: "output").zeroPoint
        withUnsafeBytes(of: zp.littleEndian) { fill = Array($0.prefix(size)) }
    }
    let xi = x.index, yi = y.index, top = pads[0].before, left = padW.before
    return { c in
        fill.withUnsafeBytes { value in
            SpaceBatch.spaceToBatch(input: c.raw(xi), inputShape: s, blockHeight: bh, blockWidth: bw, padTop: top, padLeft: left,
                                    padValue: value.baseAddress, elementSize: size, output: c.raw(yi), outputShape: out)
        }
    }
}

private func prepareBatchToSpace(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 3...3, outputs: 1...1)
    let x = try ctx.input(0)
    let (s, bh, bw, spatial) = try blockGeometry(ctx, x)
    let crops = try ctx.constantPairs(input: 2, rows: spatial, what: "crops")
    let cropW = spatial == 2 ? crops[1] : PadAmount(before: 0, after: 0)
    guard let blocks = checkedProduct([bh, bw]) else { throw ctx.invalid("block \(bh)x\(bw) overflows") }
    guard s.batch % blocks == 0 else { throw ctx.invalid("batch \(s.batch) is not a multiple of the block \(bh)x\(bw)") }
    guard let fullH = checkedProduct([s.height, bh]), let fullW = checkedProduct([s.width, bw]) else {
        throw ctx.invalid("output extents overflow")
    }
    let h = fullH - crops[0].before - crops[0].after, w = fullW - cropW.before - cropW.after
    guard h >= 0, w >= 0 else { throw ctx.invalid("crops \(crops) exceed the spatial extents \(fullH)x\(fullW)") }
    let out = NHWC(batch: s.batch / blocks, height: h, width: w, channels: s.channels)
    try ctx.setOutputShape(0, modelShape(out, rank: x.rank))
    let size = try ctx.elementSize(x, role: "input")
    let xi = x.index, yi = try ctx.output(0).index, top = crops[0].before, left = cropW.before
    return { c in
        SpaceBatch.batchToSpace(input: c.raw(xi), inputShape: s, blockHeight: bh, blockWidth: bw, cropTop: top, cropLeft: left,
                                elementSize: size, output: c.raw(yi), outputShape: out)
    }
}

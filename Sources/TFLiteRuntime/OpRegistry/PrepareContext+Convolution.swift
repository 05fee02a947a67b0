import Kernels

extension PrepareContext {
    /// The padding scheme of a windowed op.
    func paddingScheme(_ p: Schema.Padding) -> PaddingScheme {
        p == .same ? .same : .valid
    }

    /// Input `i` as a rank-4 NHWC shape.
    func nhwc(input i: Int) throws(InterpreterError) -> NHWC {
        let t = try input(i)
        guard let s = NHWC(t.shape) else { throw invalid("input \(i) must have rank 4, has shape \(t.shape)") }
        return s
    }

    /// The optional bias input `i` for `channels` outputs, of `type`; nil when omitted.
    func bias(input i: Int, channels: Int, type: DataType) throws(InterpreterError) -> Int? {
        guard let b = optionalInput(i) else { return nil }
        guard b.type == type else { throw invalid("bias has type \(b.type), expected \(type)") }
        guard b.elementCount == channels else { throw invalid("bias has \(b.elementCount) values for \(channels) output channels") }
        return b.index
    }
}

extension PrepareContext {
    /// The tensor a folded residual ADD adds to this convolution's output (see
    /// ``FoldedResidual``) and its channel count: the output's shape, or with a channel PAD
    /// folded too, that many channels fewer. Nil without a fold.
    func foldedResidual(shapedLike output: NHWC) throws(InterpreterError) -> (tensor: Int, channels: Int)? {
        guard let fold = fusions.residual else { return nil }
        let t = executor.info(fold.residual)
        var expected = output.dims
        expected[3] -= fold.channelPadding
        guard t.type == .float32, t.shape == expected else {
            throw invalid("the residual ADD folded into this convolution adds a \(t.type) tensor of shape \(t.shape) "
                          + "to its output of shape \(output.dims)")
        }
        return (fold.residual, expected[3])
    }
}

extension PrepareContext {
    /// The geometry of a convolution over input 0, its output extents computed on the input as
    /// the model sees it: with a folded PAD (``FoldedPad``) the padded extents, the PAD's
    /// amounts then added to the convolution's own padding so that the kernels read the
    /// unpadded tensor.
    func convolutionGeometry(padding: PaddingScheme, input: NHWC, filterHeight: Int, filterWidth: Int,
                             strideHeight: Int, strideWidth: Int, dilationHeight: Int, dilationWidth: Int)
        -> (geometry: ConvGeometry, outputHeight: Int, outputWidth: Int)? {
        let h = fusions.padding?.height ?? AxisPadding(before: 0, after: 0)
        let w = fusions.padding?.width ?? AxisPadding(before: 0, after: 0)
        guard let (made, oh, ow) = ConvGeometry.make(
            padding: padding, inputHeight: input.height + h.before + h.after, inputWidth: input.width + w.before + w.after,
            filterHeight: filterHeight, filterWidth: filterWidth, strideHeight: strideHeight, strideWidth: strideWidth,
            dilationHeight: dilationHeight, dilationWidth: dilationWidth)
        else { return nil }
        var geometry = made
        geometry.paddingHeight.before += h.before
        geometry.paddingHeight.after += h.after
        geometry.paddingWidth.before += w.before
        geometry.paddingWidth.after += w.after
        return (geometry, oh, ow)
    }
}

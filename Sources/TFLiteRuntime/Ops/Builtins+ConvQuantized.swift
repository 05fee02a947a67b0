import Kernels

/// Quantised CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED (integer and hybrid), TRANSPOSE_CONV,
/// BATCH_MATMUL and pooling: prepared from the tensors' quantisation parameters.

func prepareConv2DQuantized(_ ctx: inout PrepareContext, options o: Schema.Conv2DOptions, geometry: ConvGeometry,
                            input: NHWC, filter: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    throw ctx.unsupported("quantised CONV_2D")
}

func prepareDepthwiseConv2DQuantized(_ ctx: inout PrepareContext, options o: Schema.DepthwiseConv2DOptions, geometry: ConvGeometry,
                                     depthMultiplier: Int, input: NHWC, filter: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    throw ctx.unsupported("quantised DEPTHWISE_CONV_2D")
}

func prepareFullyConnectedQuantized(_ ctx: inout PrepareContext, options o: Schema.FullyConnectedOptions,
                                    batch: Int, inputDepth: Int, outputDepth: Int) throws(InterpreterError) -> NodeKernel {
    throw ctx.unsupported("quantised FULLY_CONNECTED")
}

func prepareFullyConnectedHybrid(_ ctx: inout PrepareContext, options o: Schema.FullyConnectedOptions,
                                 batch: Int, inputDepth: Int, outputDepth: Int) throws(InterpreterError) -> NodeKernel {
    throw ctx.unsupported("hybrid FULLY_CONNECTED")
}

func prepareTransposeConvQuantized(_ ctx: inout PrepareContext, options o: Schema.TransposeConvOptions, paddingTop: Int, paddingLeft: Int,
                                   input: NHWC, filter: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    throw ctx.unsupported("quantised TRANSPOSE_CONV")
}

func prepareBatchMatMulQuantized(_ ctx: inout PrepareContext, options o: Schema.BatchMatMulOptions,
                                 outputShape: [Int]) throws(InterpreterError) -> NodeKernel {
    throw ctx.unsupported("quantised BATCH_MATMUL")
}

func preparePoolQuantized(_ ctx: inout PrepareContext, kind: PoolKind, options o: Schema.Pool2DOptions, geometry: ConvGeometry,
                          input: NHWC, output: NHWC) throws(InterpreterError) -> NodeKernel {
    throw ctx.unsupported("quantised pooling")
}

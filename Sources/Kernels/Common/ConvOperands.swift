/// The operands of one convolution as the reference kernels read them (CONV_2D,
/// DEPTHWISE_CONV_2D, TRANSPOSE_CONV, in every precision): the input, the filter, the optional
/// bias and the output, each tensor's data with its NHWC shape. ``WeightedOperands`` is the
/// planned kernels' counterpart, whose shapes the plan captured.
public struct ConvOperands<Input, Filter, Bias, Output> {
    public var input: UnsafePointer<Input>
    public var inputShape: NHWC
    public var filter: UnsafePointer<Filter>
    public var filterShape: NHWC
    public var bias: UnsafePointer<Bias>?
    public var output: UnsafeMutablePointer<Output>
    public var outputShape: NHWC

    public init(input: UnsafePointer<Input>, inputShape: NHWC, filter: UnsafePointer<Filter>, filterShape: NHWC,
                bias: UnsafePointer<Bias>?, output: UnsafeMutablePointer<Output>, outputShape: NHWC) {
        self.input = input
        self.inputShape = inputShape
        self.filter = filter
        self.filterShape = filterShape
        self.bias = bias
        self.output = output
        self.outputShape = outputShape
    }
}

extension WeightedOperands {
    /// The operands of a planned convolution with the shapes its plan captured, for the
    /// reference kernels.
    func shaped(input inputShape: NHWC, filter filterShape: NHWC, output outputShape: NHWC)
        -> ConvOperands<Element, Filter, Bias, Element> {
        ConvOperands(input: input, inputShape: inputShape, filter: filter, filterShape: filterShape, bias: bias,
                     output: output, outputShape: outputShape)
    }
}

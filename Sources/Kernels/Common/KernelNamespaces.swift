// Kernel entry points are named `<Family>.<Precision>.<entry>`. The family is the op family's
// enum; float32 kernels sit on it directly (`Conv2D.reference`: a nested `Float` would shadow
// Swift's `Float` in the family's code), every other precision has a namespace of its own,
// declared here. The entry is `reference`, `optimized` or a named path
// for a family of one op, and the op's name for a family of several (`Elementwise.Quantized.mul`;
// ops that share their arithmetic share an entry: `rescaledBinary` for ADD, SUB and
// SQUARED_DIFFERENCE, with ADD's vector kernel `Int8AddKernel` beside it). A family's `plan` (`planAdd` in a family of several) picks
// among its entries.

/// QUANTIZE: float or quantised values to quantised ones.
public enum Quantize {}

extension Quantize {
    /// Affine int8, uint8 and int16 kernels.
    public enum Quantized {}
}

extension Dequantize {
    /// Affine int8, uint8 and int16 inputs, and float16 bit patterns.
    public enum Quantized {}
}

extension Conv2D {
    /// Affine int8 and uint8 activations and weights (int4 weights widened).
    public enum Quantized {}
    /// int16 activations, int8 weights, 64-bit bias.
    public enum Int16x8 {}
    /// Float activations quantised on the fly, int8 weights.
    public enum Hybrid {}
}

extension DepthwiseConv2D {
    /// Affine int8 and uint8 activations and weights (int4 weights widened).
    public enum Quantized {}
    /// Float activations quantised on the fly, int8 weights.
    public enum Hybrid {}
}

extension FullyConnected {
    /// Affine int8 and uint8 activations and weights (int4 weights widened).
    public enum Quantized {}
    /// Float activations quantised on the fly, int8 or int4 weights.
    public enum Hybrid {}
    /// Float activations, blockwise-quantised int4 weights.
    public enum BlockwiseInt4 {}
}

extension TransposeConv {
    /// Affine int8 activations and weights.
    public enum Quantized {}
    /// int16 activations, int8 weights, 64-bit bias.
    public enum Int16x8 {}
}

extension BatchMatMul {
    /// Affine int8 operands.
    public enum Quantized {}
}

extension Pooling {
    /// Affine int8, uint8 and int16 activations.
    public enum Quantized {}
}

extension Softmax {
    /// Affine int8, uint8 and int16 activations.
    public enum Quantized {}
}

extension L2Normalization {
    /// Affine int8 and uint8 activations.
    public enum Quantized {}
}

extension Resize {
    /// Affine int8, uint8 and int16 activations.
    public enum Quantized {}
}

extension Reduce {
    /// Affine int8, uint8 and int16 activations.
    public enum Quantized {}
}

extension Elementwise {
    /// Affine int8, uint8 and int16 activations.
    public enum Quantized {}
}

extension Activations {
    /// Affine int8, uint8 and int16 activations.
    public enum Quantized {}
}

extension Concatenation {
    /// Affine int8, uint8 and int16 activations.
    public enum Quantized {}
}

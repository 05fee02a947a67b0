/// How a windowed op (convolution, pooling) pads its input, as TFLite's `Padding` enum.
public enum PaddingScheme: Sendable, Equatable {
    /// Output size `ceil(in / stride)`; the input is padded so the window fits, extra at the end.
    case same
    /// No padding; output size `ceil((in - effectiveFilter + 1) / stride)`.
    case valid
}

extension PaddingScheme {
    /// Output extent along one axis. Returns nil when the window does not fit (VALID with a
    /// filter larger than the input) or an argument is not positive.
    public func outputSize(input: Int, filter: Int, stride: Int, dilation: Int = 1) -> Int? {
        guard input >= 0, filter > 0, stride > 0, dilation > 0 else { return nil }
        let effectiveFilter = (filter - 1) * dilation + 1
        switch self {
        case .same:
            return (input + stride - 1) / stride
        case .valid:
            guard input >= effectiveFilter else { return input == 0 ? 0 : nil }
            return (input - effectiveFilter + stride) / stride
        }
    }

    /// Padding along one axis for the given output extent. TFLite pads `total / 2` before and
    /// the remainder after, and never pads negatively.
    public func padding(input: Int, filter: Int, stride: Int, dilation: Int = 1, output: Int) -> AxisPadding {
        let effectiveFilter = (filter - 1) * dilation + 1
        let total = max(0, (output - 1) * stride + effectiveFilter - input)
        switch self {
        case .valid: return AxisPadding(before: 0, after: 0)
        case .same: return AxisPadding(before: total / 2, after: total - total / 2)
        }
    }
}

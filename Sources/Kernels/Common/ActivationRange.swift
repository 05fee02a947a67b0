/// A fused activation expressed as the clamp it applies, as TFLite's
/// `CalculateActivationRange` does for float and quantised outputs.
public struct ActivationRange<Scalar: Comparable & Sendable>: Sendable {
    public var min: Scalar
    public var max: Scalar

    public init(min: Scalar, max: Scalar) {
        self.min = min
        self.max = max
    }

    @inlinable
    public func clamp(_ x: Scalar) -> Scalar {
        Swift.min(Swift.max(x, min), max)
    }
}

/// What prepare computes once for a pooling node: the window and the fused activation clamp, in
/// float for a float pool and in stored units for a quantised one. Pools keep the input's
/// quantisation, so a quantised pool has no rescale.
public struct PoolingParams<Scalar: Comparable & Sendable>: Sendable {
    /// Strides and padding (dilations are ignored: TFLite pooling has none).
    public var geometry: ConvGeometry
    /// Window height.
    public var filterHeight: Int
    /// Window width.
    public var filterWidth: Int
    /// The fused activation as a clamp.
    public var activation: ActivationRange<Scalar>

    /// Creates the parameters of one pooling node.
    public init(geometry: ConvGeometry, filterHeight: Int, filterWidth: Int, activation: ActivationRange<Scalar>) {
        self.geometry = geometry
        self.filterHeight = filterHeight
        self.filterWidth = filterWidth
        self.activation = activation
    }
}

extension PoolingParams {
    /// The input rows of output row `oy`'s window, clipped to the input as TFLite clips it
    /// (empty, never negative, when the window lies wholly in the padding).
    @inlinable @inline(__always)
    package func windowRows(outputRow oy: Int, inputHeight: Int) -> Range<Int> {
        let y0 = oy * geometry.strideHeight - geometry.paddingHeight.before
        return max(0, y0)..<max(max(0, y0), min(inputHeight, y0 + filterHeight))
    }

    /// The input columns of output column `ox`'s window, clipped like ``windowRows(outputRow:inputHeight:)``.
    @inlinable @inline(__always)
    package func windowColumns(outputColumn ox: Int, inputWidth: Int) -> Range<Int> {
        let x0 = ox * geometry.strideWidth - geometry.paddingWidth.before
        return max(0, x0)..<max(max(0, x0), min(inputWidth, x0 + filterWidth))
    }
}

/// The parameters of a float pool.
public typealias PoolParams = PoolingParams<Float>

/// The parameters of a quantised pool, its clamp in stored units.
public typealias QuantizedPoolParams = PoolingParams<Int32>

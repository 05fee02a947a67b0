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

/// The parameters of a float pool.
public typealias PoolParams = PoolingParams<Float>

/// The parameters of a quantised pool, its clamp in stored units.
public typealias QuantizedPoolParams = PoolingParams<Int32>

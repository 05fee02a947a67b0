/// The affine mapping of one quantised tensor: `real = scale * (stored - zeroPoint)`.
public struct AffineQuantization: Sendable, Equatable {
    /// The step between adjacent stored values.
    public var scale: Float
    /// The stored value that represents real zero.
    public var zeroPoint: Int32

    /// Creates a per-tensor mapping.
    public init(scale: Float, zeroPoint: Int32) {
        self.scale = scale
        self.zeroPoint = zeroPoint
    }
}

/// How a dynamic-range ("hybrid") kernel quantised one batch of its float input on the fly.
public struct HybridInputScale: Sendable, Equatable {
    /// Real value of one stored unit.
    public var scale: Float
    /// The stored value of real zero (0 for symmetric quantisation).
    public var offset: Int32

    public init(scale: Float, offset: Int32) {
        self.scale = scale
        self.offset = offset
    }
}

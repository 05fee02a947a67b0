/// Padding along one spatial axis, as TFLite computes it (`ComputePaddingHeightWidth`).
public struct AxisPadding: Sendable, Equatable {
    /// Elements added before the first input element.
    public var before: Int
    /// Elements added after the last input element (may exceed `before` by one for SAME).
    public var after: Int

    public init(before: Int, after: Int) {
        self.before = before
        self.after = after
    }
}

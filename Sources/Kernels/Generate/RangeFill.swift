/// RANGE: `start, start + delta, ...` up to but excluding `limit`.
public enum RangeFill {
    /// The number of elements RANGE produces, or nil when `delta` is zero, points away from
    /// `limit`, or the count does not fit (the span overflows).
    public static func count(start: Int64, limit: Int64, delta: Int64) -> Int? {
        guard delta != 0, (limit >= start) == (delta > 0) || limit == start else { return nil }
        let (span, overflow) = limit.subtractingReportingOverflow(start)
        guard !overflow else { return nil }
        // Ceiling division of |span| by |delta|; both have the same sign here.
        let q = span / delta, r = span % delta
        return Int(exactly: q + (r != 0 ? 1 : 0))
    }

    /// The float form of `count(start:limit:delta:)`: `ceil(|limit - start| / |delta|)`.
    public static func count(start: Float, limit: Float, delta: Float) -> Int? {
        guard delta != 0, (limit >= start) == (delta > 0) || limit == start else { return nil }
        let n = ((limit - start) / delta).rounded(.up)
        guard n.isFinite, n >= 0, n < Float(Int32.max) else { return nil }
        return Int(n)
    }

    /// Writes `count` integers from `start` in steps of `delta` (wrapping on overflow).
    public static func run<T: FixedWidthInteger>(start: T, delta: T, count: Int, output: UnsafeMutablePointer<T>) {
        var value = start
        for i in 0..<count {
            output[i] = value
            value &+= delta
        }
    }

    /// Writes `count` floats, each the previous plus `delta` (accumulated as TFLite does, so
    /// rounding matches its output).
    public static func run(start: Float, delta: Float, count: Int, output: UnsafeMutablePointer<Float>) {
        var value = start
        for i in 0..<count {
            output[i] = value
            value += delta
        }
    }
}

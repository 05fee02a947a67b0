#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// ATAN2: the angle of the point `(x, y)`, elementwise `atan2(y, x)` with broadcasting.
public enum Atan2 {
    /// Writes `atan2(y, x)` for each broadcast pair (`y` is the first input of the op).
    public static func run(y: UnsafePointer<Float>, x: UnsafePointer<Float>, plan: BroadcastPlan,
                           output: UnsafeMutablePointer<Float>) {
        plan.apply(y, x, output) { atan2f($0, $1) }
    }
}

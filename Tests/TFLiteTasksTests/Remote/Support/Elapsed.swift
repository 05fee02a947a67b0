import Foundation

/// Seconds on the monotonic clock since `start`.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let (whole, fraction) = start.duration(to: .now).components
    return Double(whole) + Double(fraction) * 1e-18
}

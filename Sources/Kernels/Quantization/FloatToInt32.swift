/// Converts a float to int32 the way TFLite's `static_cast<int32_t>` does on x86: truncation
/// towards zero, and `Int32.min` (the processor's "integer indefinite" value) for NaN and for
/// values out of range. Unlike Swift's `Int32(_:)` it never traps, so a hostile scale that
/// produces an infinity gives LiteRT's answer instead of a crash.
@inlinable
public func int32LikeX86(_ value: Float) -> Int32 {
    guard value >= -2147483648, value < 2147483648 else { return .min }
    return Int32(value)
}

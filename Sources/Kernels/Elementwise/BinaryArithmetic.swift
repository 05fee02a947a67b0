#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Elementwise binary kernels over NumPy-broadcast operands.
public enum Elementwise {
    /// Float `output = act(lhs op rhs)`, shapes as planned by `plan`; large outputs are split
    /// across `pool`.
    public static func binary(_ op: BinaryOperator, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>,
                              plan: BroadcastPlan, activation: ActivationRange<Float>,
                              output: UnsafeMutablePointer<Float>, pool: ThreadPool? = nil) {
        let lo = activation.min, hi = activation.max
        @inline(__always) func clamp(_ x: Float) -> Float { Swift.min(Swift.max(x, lo), hi) }
        plan.split(pool) { e in
            switch op {
            case .add: plan.apply(elements: e, lhs, rhs, output) { clamp($0 + $1) }
            case .subtract: plan.apply(elements: e, lhs, rhs, output) { clamp($0 - $1) }
            case .multiply: plan.apply(elements: e, lhs, rhs, output) { clamp($0 * $1) }
            case .divide: plan.apply(elements: e, lhs, rhs, output) { clamp($0 / $1) }
            case .maximum: plan.apply(elements: e, lhs, rhs, output) { clamp(floatMax($0, $1)) }
            case .minimum: plan.apply(elements: e, lhs, rhs, output) { clamp(floatMin($0, $1)) }
            case .squaredDifference: plan.apply(elements: e, lhs, rhs, output) { let d = $0 - $1; return clamp(d * d) }
            case .power: plan.apply(elements: e, lhs, rhs, output) { clamp(powf($0, $1)) }
            case .floorDivide: plan.apply(elements: e, lhs, rhs, output) { clamp(Float((Double($0) / Double($1)).rounded(.down))) }
            case .floorModulo: plan.apply(elements: e, lhs, rhs, output) { clamp(floatFloorMod($0, $1)) }
            }
        }
    }

    /// Int32 `output = act(lhs op rhs)`; overflow wraps, as in C++ builds of TFLite.
    public static func binary(_ op: BinaryOperator, lhs: UnsafePointer<Int32>, rhs: UnsafePointer<Int32>,
                              plan: BroadcastPlan, activation: ActivationRange<Int32>,
                              output: UnsafeMutablePointer<Int32>) {
        integerBinary(op, lhs, rhs, plan, activation, output)
    }

    /// Int64 `output = act(lhs op rhs)`; overflow wraps.
    public static func binary(_ op: BinaryOperator, lhs: UnsafePointer<Int64>, rhs: UnsafePointer<Int64>,
                              plan: BroadcastPlan, activation: ActivationRange<Int64>,
                              output: UnsafeMutablePointer<Int64>) {
        integerBinary(op, lhs, rhs, plan, activation, output)
    }

    @inline(__always)
    static func integerBinary<T: FixedWidthInteger & SignedInteger>(
        _ op: BinaryOperator, _ lhs: UnsafePointer<T>, _ rhs: UnsafePointer<T>, _ plan: BroadcastPlan,
        _ activation: ActivationRange<T>, _ output: UnsafeMutablePointer<T>) {
        let lo = activation.min, hi = activation.max
        @inline(__always) func clamp(_ x: T) -> T { Swift.min(Swift.max(x, lo), hi) }
        switch op {
        case .add: plan.apply(lhs, rhs, output) { clamp($0 &+ $1) }
        case .subtract: plan.apply(lhs, rhs, output) { clamp($0 &- $1) }
        case .multiply: plan.apply(lhs, rhs, output) { clamp($0 &* $1) }
        case .divide: plan.apply(lhs, rhs, output) { clamp(truncatingDivide($0, $1)) }
        case .maximum: plan.apply(lhs, rhs, output) { clamp(Swift.max($0, $1)) }
        case .minimum: plan.apply(lhs, rhs, output) { clamp(Swift.min($0, $1)) }
        case .squaredDifference: plan.apply(lhs, rhs, output) { let d = $0 &- $1; return clamp(d &* d) }
        case .power: plan.apply(lhs, rhs, output) { clamp(integerPower($0, $1)) }
        case .floorDivide: plan.apply(lhs, rhs, output) { clamp(integerFloorDivide($0, $1)) }
        case .floorModulo: plan.apply(lhs, rhs, output) { clamp(integerFloorMod($0, $1)) }
        }
    }
}

/// MAXIMUM as TFLite computes it (`a > b ? a : b`), so a NaN on the left is dropped and one on
/// the right is kept.
@inline(__always) func floatMax(_ a: Float, _ b: Float) -> Float { a > b ? a : b }
/// MINIMUM as TFLite computes it (`a < b ? a : b`).
@inline(__always) func floatMin(_ a: Float, _ b: Float) -> Float { a < b ? a : b }

/// FLOOR_MOD for floats: `fmod`, moved into the divisor's sign.
@inline(__always) func floatFloorMod(_ a: Float, _ b: Float) -> Float {
    let r = fmodf(a, b)
    return (r != 0 && ((b < 0) != (r < 0))) ? r + b : r
}

/// Integer division truncating toward zero; 0 for a zero divisor, wrapping for `min / -1`.
@inline(__always) func truncatingDivide<T: FixedWidthInteger>(_ a: T, _ b: T) -> T {
    if b == 0 { return 0 }
    return a.dividedReportingOverflow(by: b).partialValue
}

/// `floor(a / b)` in integers (TFLite computes it through double, which is exact for int32
/// and equal to this for int64 quotients below 2^53).
@inline(__always) func integerFloorDivide<T: FixedWidthInteger & SignedInteger>(_ a: T, _ b: T) -> T {
    if b == 0 { return 0 }
    let q = a.dividedReportingOverflow(by: b).partialValue
    let r = a.remainderReportingOverflow(dividingBy: b).partialValue
    return (r != 0 && ((r < 0) != (b < 0))) ? q &- 1 : q
}

/// Integer FLOOR_MOD: the truncated remainder moved into the divisor's sign; 0 for a zero divisor.
@inline(__always) func integerFloorMod<T: FixedWidthInteger & SignedInteger>(_ a: T, _ b: T) -> T {
    if b == 0 { return 0 }
    let r = a.remainderReportingOverflow(dividingBy: b).partialValue
    return (r != 0 && ((b < 0) != (r < 0))) ? r &+ b : r
}

/// Integer power by squaring with wrapping multiplication.
@inline(__always) func integerPower<T: FixedWidthInteger & SignedInteger>(_ base: T, _ exponent: T) -> T {
    if exponent < 0 {
        if base == 1 { return 1 }
        if base == -1 { return exponent & 1 == 0 ? 1 : -1 }
        return 0
    }
    var result: T = 1, b = base, e = exponent
    while e != 0 {
        if e & 1 == 1 { result = result &* b }
        e >>= 1
        if e != 0 { b = b &* b }
    }
    return result
}

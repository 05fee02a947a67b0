#if TFLITE_ISA_MODULE
import Kernels
#endif
/// Float ADD, SUB, MUL, DIV and PRELU in ``WideFloats``: both operands of the same shape, one of them a
/// single element (SSD's input normalisation subtracts a scalar from every pixel), or one of
/// them a row repeated over the other (a per-channel scale).
///
/// Each element is the one IEEE operation the reference computes, then the same clamp, so the
/// results are the reference's bit for bit on every variant. The operator and the clamp are
/// types whose methods are transparent: passed as closures, the sixteen-lane operations stayed
/// calls, each splitting its vectors into four xmm quarters.
enum FloatArithmeticVectors {
    /// Whether ``run(_:plan:activation:_:pool:)`` handles `op` over `plan`'s layout.
    static func handles(_ op: BinaryOperator, _ plan: BroadcastPlan) -> Bool {
        [.add, .subtract, .multiply, .divide].contains(op) && plan.layout != .general
    }

    /// `output = act(a op b)` for an operator and layout that ``handles(_:_:)`` accepts, split
    /// across `pool` as the reference splits it.
    static func run(_ op: BinaryOperator, plan: BroadcastPlan, activation: ActivationRange<Float>,
                    _ o: BinaryOperands<Float>, pool: ThreadPool?) {
        switch op {
        case .add: run(Sum.self, plan, activation, o, pool)
        case .subtract: run(Difference.self, plan, activation, o, pool)
        case .multiply: run(Product.self, plan, activation, o, pool)
        default: run(Quotient.self, plan, activation, o, pool)
        }
    }

    /// PRELU, `x >= 0 ? x : alpha * x` with `a` the input and `b` alpha, over a layout that is not
    /// the strided one (a per-channel alpha is a repeated row).
    static func prelu(plan: BroadcastPlan, _ o: BinaryOperands<Float>, pool: ThreadPool?) {
        sweep(ParametricRelu.self, Unbounded(), plan, o, pool)
    }

    /// One operator: the clamp is left out when the activation bounds nothing (it would change
    /// no value, NaN included).
    private static func run<Op: LaneArithmetic>(_: Op.Type, _ plan: BroadcastPlan, _ activation: ActivationRange<Float>,
                                                _ o: BinaryOperands<Float>, _ pool: ThreadPool?) {
        if activation.min == -.infinity && activation.max == .infinity {
            sweep(Op.self, Unbounded(), plan, o, pool)
        } else {
            sweep(Op.self, Bounds(lo: activation.min, hi: activation.max), plan, o, pool)
        }
    }

    private static func sweep<Op: LaneArithmetic, Clamp: LaneFunction>(_: Op.Type, _ clamp: Clamp, _ plan: BroadcastPlan,
                                                                     _ o: BinaryOperands<Float>, _ pool: ThreadPool?) {
        let a = o.a, b = o.b, y = o.output
        plan.split(pool) { e in
            let start = e.lowerBound
            switch plan.layout {
            case .sameShape:
                span(Op.self, clamp, a + start, b + start, y + start, e.count)
            case .scalarRHS:
                span(Op.self, clamp, a + start, scalar: b[0], y + start, e.count)
            case .scalarLHS:
                span(Op.self, clamp, scalar: a[0], b + start, y + start, e.count)
            case .rowRHS:
                for row in stride(from: start, to: e.upperBound, by: plan.rowLength) {
                    span(Op.self, clamp, a + row, b, y + row, plan.rowLength)
                }
            case .rowLHS:
                for row in stride(from: start, to: e.upperBound, by: plan.rowLength) {
                    span(Op.self, clamp, a, b + row, y + row, plan.rowLength)
                }
            case .general:
                preconditionFailure("the strided layout is the reference's")
            }
        }
    }

    /// `y[i] = clamp(a[i] op b[i])` for `i < count`: whole vectors, then the rest one by one.
    @inline(__always)
    private static func span<Op: LaneArithmetic, Clamp: LaneFunction>(
        _: Op.Type, _ clamp: Clamp, _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
        _ y: UnsafeMutablePointer<Float>, _ count: Int) {
        var i = 0
        while i + WideFloats.scalarCount <= count {
            store(clamp.lanes(Op.lanes(load(a + i), load(b + i))), y + i)
            i += WideFloats.scalarCount
        }
        while i < count {
            y[i] = clamp.value(Op.value(a[i], b[i]))
            i += 1
        }
    }

    /// `y[i] = clamp(a[i] op s)`.
    @inline(__always)
    private static func span<Op: LaneArithmetic, Clamp: LaneFunction>(
        _: Op.Type, _ clamp: Clamp, _ a: UnsafePointer<Float>, scalar s: Float,
        _ y: UnsafeMutablePointer<Float>, _ count: Int) {
        let splat = WideFloats(repeating: s)
        var i = 0
        while i + WideFloats.scalarCount <= count {
            store(clamp.lanes(Op.lanes(load(a + i), splat)), y + i)
            i += WideFloats.scalarCount
        }
        while i < count {
            y[i] = clamp.value(Op.value(a[i], s))
            i += 1
        }
    }

    /// `y[i] = clamp(s op b[i])`.
    @inline(__always)
    private static func span<Op: LaneArithmetic, Clamp: LaneFunction>(
        _: Op.Type, _ clamp: Clamp, scalar s: Float, _ b: UnsafePointer<Float>,
        _ y: UnsafeMutablePointer<Float>, _ count: Int) {
        let splat = WideFloats(repeating: s)
        var i = 0
        while i + WideFloats.scalarCount <= count {
            store(clamp.lanes(Op.lanes(splat, load(b + i))), y + i)
            i += WideFloats.scalarCount
        }
        while i < count {
            y[i] = clamp.value(Op.value(s, b[i]))
            i += 1
        }
    }

    @_transparent
    private static func load(_ p: UnsafePointer<Float>) -> WideFloats {
        UnsafeRawPointer(p).loadUnaligned(as: WideFloats.self)
    }

    @_transparent
    private static func store(_ v: WideFloats, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: WideFloats.self)
    }
}

/// One arithmetic operator, on vectors and on single floats.
private protocol LaneArithmetic {
    static func lanes(_ a: WideFloats, _ b: WideFloats) -> WideFloats
    static func value(_ a: Float, _ b: Float) -> Float
}

private enum Sum: LaneArithmetic {
    @_transparent static func lanes(_ a: WideFloats, _ b: WideFloats) -> WideFloats { a + b }
    @_transparent static func value(_ a: Float, _ b: Float) -> Float { a + b }
}

private enum Difference: LaneArithmetic {
    @_transparent static func lanes(_ a: WideFloats, _ b: WideFloats) -> WideFloats { a - b }
    @_transparent static func value(_ a: Float, _ b: Float) -> Float { a - b }
}

private enum Product: LaneArithmetic {
    @_transparent static func lanes(_ a: WideFloats, _ b: WideFloats) -> WideFloats { a * b }
    @_transparent static func value(_ a: Float, _ b: Float) -> Float { a * b }
}

private enum Quotient: LaneArithmetic {
    @_transparent static func lanes(_ a: WideFloats, _ b: WideFloats) -> WideFloats { a / b }
    @_transparent static func value(_ a: Float, _ b: Float) -> Float { a / b }
}

/// PRELU's `x >= 0 ? x : alpha * x`, NaN included: a NaN input is not `>= 0`, so it becomes
/// `alpha * NaN`, as in the reference.
private enum ParametricRelu: LaneArithmetic {
    @_transparent static func lanes(_ x: WideFloats, _ alpha: WideFloats) -> WideFloats {
        x.replacing(with: alpha * x, where: .!(x .>= 0))
    }
    @_transparent static func value(_ x: Float, _ alpha: Float) -> Float { x >= 0 ? x : alpha * x }
}

import Kernels

extension PrepareContext {
    /// A constant integer vector input (shape, axes, sizes) as `[Int]`; throws when the input
    /// is missing, not int32/int64, or not constant.
    func constantIntegers(input i: Int) throws(InterpreterError) -> [Int] {
        let t = try input(i)
        switch t.type {
        case .int32:
            guard let v = t.constantValues(as: Int32.self) else { throw unsupported("input \(i) must be a constant (it is computed at run time)") }
            return v.map(Int.init)
        case .int64:
            guard let v = t.constantValues(as: Int64.self) else { throw unsupported("input \(i) must be a constant (it is computed at run time)") }
            return v.map { Int(truncatingIfNeeded: $0) }
        default:
            throw invalid("input \(i) must be int32 or int64, is \(t.type)")
        }
    }

    /// A constant scalar (or one-element) integer input.
    func constantInteger(input i: Int, what: String) throws(InterpreterError) -> Int {
        let values = try constantIntegers(input: i)
        guard values.count == 1 else { throw invalid("\(what) (input \(i)) must hold one value, holds \(values.count)") }
        return values[0]
    }

    /// A constant `[rank, 2]` integer tensor of before/after amounts (PAD, MIRROR_PAD, the
    /// space-to-batch paddings and crops), each required to be non-negative.
    func constantPairs(input i: Int, rows: Int, what: String) throws(InterpreterError) -> [PadAmount] {
        let t = try input(i)
        guard t.shape == [rows, 2] else { throw invalid("\(what) must have shape [\(rows), 2], has \(t.shape)") }
        let v = try constantIntegers(input: i)
        var pairs: [PadAmount] = []
        for r in 0..<rows {
            guard v[2 * r] >= 0, v[2 * r + 1] >= 0 else {
                throw invalid("\(what) [\(v[2 * r]), \(v[2 * r + 1])] for axis \(r) must not be negative")
            }
            // Larger amounts (int64 paddings) could overflow the padded extent itself; no
            // tensor that large could be allocated anyway.
            guard v[2 * r] <= Int(Int32.max), v[2 * r + 1] <= Int(Int32.max) else {
                throw invalid("\(what) [\(v[2 * r]), \(v[2 * r + 1])] for axis \(r) are too large")
            }
            pairs.append(PadAmount(before: v[2 * r], after: v[2 * r + 1]))
        }
        return pairs
    }
}

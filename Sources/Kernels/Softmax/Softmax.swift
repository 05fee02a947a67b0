#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Float SOFTMAX and LOG_SOFTMAX over the last axis: the input is viewed as `[rows, depth]`.
public enum Softmax {
    /// SOFTMAX: `exp(beta * (x - max)) / sum(exp(beta * (x - max)))` per row, as TFLite's
    /// reference kernel (subtracting the row maximum keeps `exp` in range).
    public static func softmax(input: UnsafePointer<Float>, rows: Int, depth: Int, beta: Float,
                               output: UnsafeMutablePointer<Float>) {
        forEachRow(input, output, rows: rows, depth: depth) { x, y, m in
            var sum: Float = 0
            for i in 0..<depth {
                let e = expf((x[i] - m) * beta)
                y[i] = e
                sum += e
            }
            let scale = 1 / sum
            for i in 0..<depth { y[i] *= scale }
        }
    }

    /// LOG_SOFTMAX: `x - max - log(sum(exp(x - max)))` per row.
    public static func logSoftmax(input: UnsafePointer<Float>, rows: Int, depth: Int,
                                  output: UnsafeMutablePointer<Float>) {
        forEachRow(input, output, rows: rows, depth: depth) { x, y, m in
            var sum: Float = 0
            for i in 0..<depth { sum += expf(x[i] - m) }
            let logSum = logf(sum)
            for i in 0..<depth { y[i] = x[i] - m - logSum }
        }
    }

    /// Calls `body(x, y, max)` for each row: its input, its output and its largest input,
    /// which both ops subtract to keep `exp` in range. Nothing is called for rows of no values.
    @inline(__always)
    static func forEachRow(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, rows: Int, depth: Int,
                           _ body: (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Float) -> Void) {
        guard depth > 0 else { return }
        for r in 0..<rows {
            let x = input + r * depth
            var m = x[0]
            for i in 1..<depth { m = Swift.max(m, x[i]) }
            body(x, output + r * depth, m)
        }
    }
}

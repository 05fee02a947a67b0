#if TFLITE_ISA_MODULE
import Kernels
#endif
/// Optimised float SUM and MEAN over a block of adjacent axes with kept axes after it, the
/// input seen as `[outer, rows, inner]` (a global average pool's `[1, H * W, C]`): each column
/// summed down its rows in ``WideFloats`` lanes, in the reference's order (first row first), so
/// the sums, and MEAN's division by `rows`, give the reference's bits.
struct FloatMeanKernel {
    let outer: Int, rows: Int, inner: Int
    /// Whether the sums are divided by `rows` (MEAN) or not (SUM).
    let divides: Bool

    /// Columns summed at once: four vectors of sums stay in registers down all the rows.
    static let blockVectors = 4

    /// The reduction of `input` into `out`, on the calling thread: a global average pool is a
    /// few microseconds of work.
    func run(_ input: UnsafePointer<Float>, output out: UnsafeMutablePointer<Float>) {
        let lanes = WideFloats.scalarCount
        let count = WideFloats(repeating: Float(rows))
        @inline(__always) func finished(_ sum: WideFloats) -> WideFloats { divides ? sum / count : sum }
        for o in 0..<outer {
            let x = input + o &* rows &* inner, y = UnsafeMutableRawPointer(out + o &* inner)
            var c = 0
            while c &+ Self.blockVectors &* lanes <= inner {
                var s0 = WideFloats(), s1 = WideFloats(), s2 = WideFloats(), s3 = WideFloats()
                var p = UnsafeRawPointer(x + c)
                for _ in 0..<rows {
                    s0 += p.loadUnaligned(as: WideFloats.self)
                    s1 += p.loadUnaligned(fromByteOffset: 4 &* lanes, as: WideFloats.self)
                    s2 += p.loadUnaligned(fromByteOffset: 8 &* lanes, as: WideFloats.self)
                    s3 += p.loadUnaligned(fromByteOffset: 12 &* lanes, as: WideFloats.self)
                    p += inner &* 4
                }
                y.storeBytes(of: finished(s0), toByteOffset: 4 &* c, as: WideFloats.self)
                y.storeBytes(of: finished(s1), toByteOffset: 4 &* (c &+ lanes), as: WideFloats.self)
                y.storeBytes(of: finished(s2), toByteOffset: 4 &* (c &+ 2 &* lanes), as: WideFloats.self)
                y.storeBytes(of: finished(s3), toByteOffset: 4 &* (c &+ 3 &* lanes), as: WideFloats.self)
                c &+= Self.blockVectors &* lanes
            }
            while c &+ lanes <= inner {
                var s = WideFloats(), p = UnsafeRawPointer(x + c)
                for _ in 0..<rows {
                    s += p.loadUnaligned(as: WideFloats.self)
                    p += inner &* 4
                }
                y.storeBytes(of: finished(s), toByteOffset: 4 &* c, as: WideFloats.self)
                c &+= lanes
            }
            // The last columns, fewer than a vector, one by one.
            while c < inner {
                var s: Float = 0
                for r in 0..<rows { s += x[r &* inner &+ c] }
                out[o &* inner &+ c] = divides ? s / Float(rows) : s
                c &+= 1
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// RFFT2D: the 2-D discrete Fourier transform of real input over its two innermost axes,
/// keeping the `width / 2 + 1` non-redundant frequencies of the last axis. Each `[rows,
/// columns]` plane is cropped or zero-padded to the FFT size first. Output is complex64:
/// interleaved (real, imaginary) floats.
public struct RFFT2D: Sendable {
    /// The transform size along the two innermost axes.
    public let height: Int, width: Int
    /// Twiddle factors `exp(-2πi k / n)` for the two sizes, as (cos, sin) pairs.
    let rowTwiddles: [(Double, Double)], columnTwiddles: [(Double, Double)]

    /// Prepares transforms of `height` x `width` points (both at least 1).
    public init(height: Int, width: Int) {
        self.height = height
        self.width = width
        func twiddles(_ n: Int) -> [(Double, Double)] {
            (0..<n).map { k in
                let angle = -2 * Double.pi * Double(k) / Double(n)
                return (cos(angle), sin(angle))
            }
        }
        rowTwiddles = twiddles(width)
        columnTwiddles = twiddles(height)
    }

    /// Frequencies kept along the last axis.
    public var outputWidth: Int { width / 2 + 1 }

    /// Transforms `planes` planes of `rows` x `columns` floats into `planes` planes of
    /// `height` x `outputWidth` complex values.
    /// - Parameter work: scratch for `height * outputWidth * 2` doubles.
    public func run(input: UnsafePointer<Float>, planes: Int, rows: Int, columns: Int,
                    output: UnsafeMutablePointer<Float>, work: UnsafeMutablePointer<Double>) {
        let half = outputWidth
        let usedRows = Swift.min(rows, height), usedColumns = Swift.min(columns, width)
        for p in 0..<planes {
            let plane = input + p * rows * columns
            // Real DFT of each row (rows past the input are zero, so their transform is too).
            for r in 0..<height {
                for k in 0..<half {
                    var re = 0.0, im = 0.0
                    if r < usedRows {
                        for n in 0..<usedColumns {
                            let x = Double(plane[r * columns + n])
                            let t = rowTwiddles[(k * n) % width]
                            re += x * t.0
                            im += x * t.1
                        }
                    }
                    work[2 * (r * half + k)] = re
                    work[2 * (r * half + k) + 1] = im
                }
            }
            // Complex DFT down each kept column.
            let out = output + p * height * half * 2
            for k1 in 0..<height {
                for k2 in 0..<half {
                    var re = 0.0, im = 0.0
                    for n1 in 0..<usedRows {
                        let t = columnTwiddles[(k1 * n1) % height]
                        let a = work[2 * (n1 * half + k2)], b = work[2 * (n1 * half + k2) + 1]
                        re += a * t.0 - b * t.1
                        im += a * t.1 + b * t.0
                    }
                    out[2 * (k1 * half + k2)] = Float(re)
                    out[2 * (k1 * half + k2) + 1] = Float(im)
                }
            }
        }
    }
}

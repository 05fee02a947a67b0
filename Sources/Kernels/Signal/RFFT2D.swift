/// RFFT2D: the 2-D discrete Fourier transform of real input over its two innermost axes,
/// keeping the `width / 2 + 1` non-redundant frequencies of the last axis. Each `[rows,
/// columns]` plane is cropped or zero-padded to the FFT size first. Output is complex64:
/// interleaved (real, imaginary) floats. Both sizes are powers of two (as TFLite requires);
/// the transform is an iterative radix-2 FFT over rows, then over the kept columns, in double
/// precision.
public struct RFFT2D: Sendable {
    /// The transform size along the two innermost axes.
    public let height: Int, width: Int
    let rowFFT: ComplexFFT, columnFFT: ComplexFFT

    /// Prepares transforms of `height` x `width` points.
    /// - Precondition: both sizes are powers of two.
    public init(height: Int, width: Int) {
        precondition(height > 0 && height & (height - 1) == 0 && width > 0 && width & (width - 1) == 0)
        self.height = height
        self.width = width
        rowFFT = ComplexFFT(count: width)
        columnFFT = ComplexFFT(count: height)
    }

    /// Frequencies kept along the last axis.
    public var outputWidth: Int { width / 2 + 1 }

    /// Doubles of scratch `run` needs.
    public var workCount: Int { 2 * height * outputWidth + 2 * Swift.max(height, width) }

    /// Transforms `planes` planes of `rows` x `columns` floats into `planes` planes of
    /// `height` x `outputWidth` complex values.
    /// - Parameter work: scratch for `workCount` doubles.
    public func run(input: UnsafePointer<Float>, planes: Int, rows: Int, columns: Int,
                    output: UnsafeMutablePointer<Float>, work: UnsafeMutablePointer<Double>) {
        let half = outputWidth
        let usedRows = Swift.min(rows, height), usedColumns = Swift.min(columns, width)
        let spectrum = work, line = work + 2 * height * half
        for p in 0..<planes {
            let plane = input + p * rows * columns
            for r in 0..<height {
                // Rows past the input are zero, and so is their transform.
                for i in 0..<2 * width { line[i] = 0 }
                if r < usedRows { for n in 0..<usedColumns { line[2 * n] = Double(plane[r * columns + n]) } }
                if r < usedRows { rowFFT.forward(line) }
                for k in 0..<2 * half { spectrum[2 * r * half + k] = line[k] }
            }
            let out = output + p * height * half * 2
            for k2 in 0..<half {
                for r in 0..<height {
                    line[2 * r] = spectrum[2 * (r * half + k2)]
                    line[2 * r + 1] = spectrum[2 * (r * half + k2) + 1]
                }
                columnFFT.forward(line)
                for k1 in 0..<height {
                    out[2 * (k1 * half + k2)] = Float(line[2 * k1])
                    out[2 * (k1 * half + k2) + 1] = Float(line[2 * k1 + 1])
                }
            }
        }
    }
}

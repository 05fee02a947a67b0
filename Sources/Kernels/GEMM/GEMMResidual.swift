/// A matrix added to a GEMM's results before their clamp: the skip connection of a residual
/// ADD folded into the convolution before it.
///
/// Result row `i`, column `j` adds `base[i * rowStride + j]` for `j < columns` and zero past
/// it, so a skip connection with fewer channels than the convolution's output stands for its
/// zero-padded self (a channel PAD folded away too). Adding that zero keeps the unfolded
/// result bit for bit, down to the sign of zero.
public struct GEMMResidual {
    /// Row 0, column 0.
    public let base: UnsafePointer<Float>
    /// Floats from one row to the next.
    public let rowStride: Int
    /// Columns with a value; the rest add zero. May be zero or negative past the last one.
    public let columns: Int

    public init(base: UnsafePointer<Float>, rowStride: Int, columns: Int) {
        self.base = base
        self.rowStride = rowStride
        self.columns = columns
    }

    /// A skip connection of `channels` floats per output pixel.
    public init(base: UnsafePointer<Float>, channels: Int) {
        self.init(base: base, rowStride: channels, columns: channels)
    }

    /// The same matrix from row `rows` and column `column` on.
    @inline(__always)
    @inlinable package func advanced(rows: Int, column: Int) -> GEMMResidual {
        GEMMResidual(base: base + rows * rowStride + column, rowStride: rowStride, columns: columns - column)
    }
}

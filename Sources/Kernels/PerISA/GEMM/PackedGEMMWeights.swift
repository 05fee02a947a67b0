#if TFLITE_ISA_MODULE
import Kernels
#endif
/// A constant weight matrix `W[n][k]` (row-major, one row per output column of the product)
/// repacked once, at prepare, into the panel layout the GEMM micro-kernel streams through.
///
/// Panels hold ``GEMM/panelWidth`` output columns each: for every depth index `k` the panel
/// stores the weights of its columns side by side, so the micro-kernel reads one contiguous
/// vector per `k`. The last panel is padded with zeros.
struct PackedGEMMWeights: Sendable {
    /// Number of output columns (rows of the original weight matrix).
    let outputCount: Int
    /// Length of each dot product (columns of the original weight matrix).
    let depth: Int
    /// The packed panels, `panelCount * depth * panelWidth` floats.
    @usableFromInline let panels: [Float]

    /// Packs `weights`, a row-major `[outputCount, depth]` matrix.
    init(weights: UnsafePointer<Float>, outputCount: Int, depth: Int) {
        self.outputCount = outputCount
        self.depth = depth
        let width = GEMM.panelWidth
        let panelCount = (outputCount + width - 1) / width
        var packed = [Float](repeating: 0, count: panelCount * depth * width)
        packed.withUnsafeMutableBufferPointer { dst in
            for p in 0..<panelCount {
                let base = p * depth * width
                for j in 0..<Swift.min(width, outputCount - p * width) {
                    let row = weights + (p * width + j) * depth
                    for k in 0..<depth { dst[base + k * width + j] = row[k] }
                }
            }
        }
        self.panels = packed
    }

    /// The number of ``GEMM/panelWidth``-column panels.
    var panelCount: Int { (outputCount + GEMM.panelWidth - 1) / GEMM.panelWidth }
}

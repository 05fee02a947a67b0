#if TFLITE_ISA_MODULE
import Kernels
#endif
/// Weights of one CONV_2D node packed for ``Conv2D/optimized(params:path:input:inputShape:weights:bias:residual:output:outputShape:scratch:pool:)``,
/// built once at prepare and owned by the runtime.
struct PackedConv2DWeights: Sendable {
    /// The original filter shape, `[outputChannels, filterHeight, filterWidth, inputChannels]`.
    let filterShape: NHWC
    /// The filter as a `[outputChannels, filterHeight * filterWidth * inputChannels]` GEMM operand.
    let gemm: PackedGEMMWeights

    /// Packs a CONV_2D filter laid out `[outputChannels, filterHeight, filterWidth, inputChannels]`.
    init(filter: UnsafePointer<Float>, filterShape: NHWC) {
        self.filterShape = filterShape
        self.gemm = PackedGEMMWeights(weights: filter, outputCount: filterShape.batch,
                                      depth: filterShape.height * filterShape.width * filterShape.channels)
    }
}

extension Conv2D {
    /// Whether the optimised path handles this node: it does not implement grouped convolution.
    static func supportsOptimized(inputShape: NHWC, filterShape: NHWC) -> Bool {
        inputShape.channels == filterShape.channels
    }

    /// Whether the node is a 1x1, stride-1 convolution, run as a plain GEMM straight on the
    /// input with no scratch.
    static func isPointwise(geometry g: ConvGeometry, filterShape: NHWC) -> Bool {
        filterShape.height == 1 && filterShape.width == 1 && g.strideHeight == 1 && g.strideWidth == 1
            && g.paddingHeight.before == 0 && g.paddingWidth.before == 0
    }

    /// How the optimised CONV_2D computes a layer: chosen once at prepare, so the kernel's
    /// name and its run cannot disagree.
    enum Path: String {
        /// One GEMM straight over the input (``isPointwise(geometry:filterShape:)``).
        case pointwise
        /// Windows read in place for few input channels (``usesDirectRows(params:inputShape:filterShape:)``).
        case directRows = "direct-rows"
        /// Blocks of windows gathered into scratch, then multiplied.
        case im2col
    }

    /// The path a layer takes.
    static func path(params: Conv2DParams, inputShape: NHWC, filterShape: NHWC) -> Path {
        if isPointwise(geometry: params.geometry, filterShape: filterShape) { return .pointwise }
        return usesDirectRows(params: params, inputShape: inputShape, filterShape: filterShape) ? .directRows : .im2col
    }

    /// Output pixels gathered per im2col block: enough rows to amortise the weight stream, few
    /// enough that a block (rows x depth floats) stays near 1 MiB.
    static func im2colRows(depth: Int) -> Int {
        let rows = (262_144 / Swift.max(1, depth)) / GEMM.rowTile * GEMM.rowTile
        return Swift.min(Swift.max(rows, GEMM.rowTile), 16 * GEMM.rowTile)
    }

    /// Output pixels per im2col block for a layer of `pixels` outputs split into `chunks`: at
    /// most ``im2colRows(depth:)``, in a number of blocks that `chunks` divides, so that every
    /// thread gets an equal share. (A 10x10 detector head in blocks of 128 rows was one block,
    /// run on one thread; a 20x20 one four blocks, the last of 16 rows.)
    static func im2colBlockRows(pixels: Int, depth: Int, chunks: Int) -> Int {
        let most = im2colRows(depth: depth)
        guard chunks > 1 else { return most }
        let blocks = ((pixels + most - 1) / most + chunks - 1) / chunks * chunks
        let rows = (pixels + blocks - 1) / blocks
        return Swift.min(most, (rows + GEMM.rowTile - 1) / GEMM.rowTile * GEMM.rowTile)
    }

    /// The number of floats of scratch memory ``optimized(params:path:input:inputShape:weights:bias:residual:output:outputShape:scratch:pool:)``
    /// needs for a layer taking `path` on a pool of `threadCount` threads (0 for pointwise layers).
    static func scratchFloatCount(path: Path, filterShape: NHWC, threadCount: Int) -> Int {
        if path == .pointwise { return 0 }
        let depth = filterShape.height * filterShape.width * filterShape.channels
        return Swift.max(1, threadCount) * im2colRows(depth: depth) * depth
    }

    /// The optimised CONV_2D: pointwise convolutions are one GEMM over the input; layers over a
    /// few input channels read most windows in place (``directRows(params:input:inputShape:weights:bias:output:outputShape:scratch:pool:)``);
    /// others gather blocks of output pixels' windows into `scratch` (im2col) and multiply each
    /// block.
    /// Output rows are split across `pool`.
    ///
    /// - Parameters:
    ///   - path: ``path(params:inputShape:filterShape:)`` of the layer, computed at prepare.
    ///   - scratch: at least ``scratchFloatCount(path:filterShape:threadCount:)`` floats for
    ///     `pool.threadCount`; may be nil when that count is 0.
    ///   - weights: the packed filter (``supportsOptimized(inputShape:filterShape:)`` must hold).
    ///   - residual: the skip connection of a residual ADD folded into the convolution, added
    ///     before the activation: one row per output pixel (see ``GEMMResidual``); or nil.
    static func optimized(params: Conv2DParams, path: Path,
                          input: UnsafePointer<Float>, inputShape: NHWC,
                          weights: PackedConv2DWeights, bias: UnsafePointer<Float>?,
                          residual: GEMMResidual? = nil,
                          output: UnsafeMutablePointer<Float>, outputShape: NHWC,
                          scratch: UnsafeMutablePointer<Float>?, pool: ThreadPool) {
        let f = weights.filterShape
        let depth = weights.gemm.depth
        let m = outputShape.batch * outputShape.height * outputShape.width
        let n = outputShape.channels
        guard m > 0, n > 0 else { return }
        if depth == 0 {
            // An empty reduction leaves the bias alone.
            for i in 0..<m {
                for c in 0..<n {
                    var v = bias?[c] ?? 0
                    if let residual, c < residual.columns { v += residual.base[i * residual.rowStride + c] }
                    output[i * n + c] = params.activation.clamp(v)
                }
            }
            return
        }
        if path == .pointwise {
            multiplySplit(a: input, lda: depth, m: m, weights: weights.gemm, bias: bias,
                          activation: params.activation, residual: residual, c: output, ldc: n, pool: pool)
            return
        }
        guard let scratch else {
            assertionFailure("CONV_2D needs im2col scratch")
            return
        }
        if path == .directRows {
            directRows(params: params, input: input, inputShape: inputShape, weights: weights, bias: bias,
                       residual: residual, output: output, outputShape: outputShape, scratch: scratch, pool: pool)
            return
        }
        let chunks = pool.chunks(forWork: m * n * depth)
        let blockRows = im2colBlockRows(pixels: m, depth: depth, chunks: chunks)
        let blocks = (m + blockRows - 1) / blockRows
        pool.parallelFor(count: blocks, chunks: chunks) { thread, range in
            let buffer = scratch + thread * blockRows * depth
            for block in range {
                let first = block * blockRows
                let rows = Swift.min(blockRows, m - first)
                // Output coordinates advance incrementally: three integer divisions per pixel
                // cost more than gathering a small layer's window.
                var ox = first % outputShape.width
                var oy = (first / outputShape.width) % outputShape.height
                var b = first / (outputShape.width * outputShape.height)
                for r in 0..<rows {
                    gatherWindow(batch: b, y: oy, x: ox, params: params, input: input, inputShape: inputShape,
                                 filterShape: f, into: buffer + r * depth)
                    ox += 1
                    if ox == outputShape.width {
                        ox = 0
                        oy += 1
                        if oy == outputShape.height { oy = 0; b += 1 }
                    }
                }
                GEMM.multiply(a: buffer, lda: depth, rows: 0..<rows, weights: weights.gemm,
                              panels: 0..<weights.gemm.panelCount, bias: bias, activation: params.activation,
                              residual: residual?.advanced(rows: first, column: 0), c: output + first * n, ldc: n)
            }
        }
    }

    /// Splits a GEMM over the pool along rows or along column panels, whichever leaves the
    /// busiest thread the fewest tile rows times panels (``GEMM/tiledRows(_:)``), rows on a
    /// tie. Rows split evenly, each share tiled on its own: a 14x14 layer's 196 rows go 98
    /// and 98, both whole eight- and seven-row tiles. Few rows and many panels split by
    /// panels: a 7x7 layer's 49 rows go 25 and 24 (28 and 24 tile rows), where its 1,280
    /// columns split evenly (mobilenet_v2's last pointwise layer took 1.65x less time on two
    /// threads than on one, instead of about 1.9x).
    static func multiplySplit(a: UnsafePointer<Float>, lda: Int, m: Int, weights: PackedGEMMWeights,
                              bias: UnsafePointer<Float>?, activation: ActivationRange<Float>,
                              residual: GEMMResidual? = nil,
                              c: UnsafeMutablePointer<Float>, ldc: Int, pool: ThreadPool) {
        let panels = weights.panelCount
        let chunks = pool.chunks(forWork: m * weights.outputCount * weights.depth)
        let byRows = GEMM.tiledRows((m + chunks - 1) / chunks) * panels
        let byPanels = GEMM.tiledRows(m) * ((panels + chunks - 1) / chunks)
        if byRows <= byPanels {
            pool.parallelFor(count: m, chunks: chunks) { _, rows in
                GEMM.multiply(a: a, lda: lda, rows: rows, weights: weights, panels: 0..<panels,
                              bias: bias, activation: activation, residual: residual, c: c, ldc: ldc)
            }
        } else {
            pool.parallelFor(count: panels, chunks: chunks) { _, range in
                GEMM.multiply(a: a, lda: lda, rows: 0..<m, weights: weights, panels: range,
                              bias: bias, activation: activation, residual: residual, c: c, ldc: ldc)
            }
        }
    }

    /// Writes the receptive field of output pixel (`b`, `oy`, `ox`), in filter order (y, x, channel), with
    /// zeros where the window leaves the input.
    @inline(__always)
    static func gatherWindow(batch b: Int, y oy: Int, x ox: Int, params: Conv2DParams, input: UnsafePointer<Float>,
                             inputShape: NHWC, filterShape: NHWC, into row: UnsafeMutablePointer<Float>) {
        let g = params.geometry
        let cin = inputShape.channels
        let iy0 = oy * g.strideHeight - g.paddingHeight.before
        let ix0 = ox * g.strideWidth - g.paddingWidth.before
        var dst = row
        let rowFloats = filterShape.width * cin
        for fy in 0..<filterShape.height {
            let iy = iy0 + fy * g.dilationHeight
            let rowInside = iy >= 0 && iy < inputShape.height
            if g.dilationWidth == 1 {
                // Undilated taps of one filter row are adjacent input pixels: one copy for the
                // in-bounds run instead of one per tap (a first layer with 3 channels would
                // otherwise copy 12 bytes per call).
                let first = rowInside ? Swift.min(Swift.max(0, -ix0), filterShape.width) : filterShape.width
                let end = rowInside ? Swift.max(first, Swift.min(filterShape.width, inputShape.width - ix0)) : first
                if first > 0 { dst.update(repeating: 0, count: first * cin) }
                if end > first {
                    copyRun(from: input + ((b * inputShape.height + iy) * inputShape.width + ix0 + first) * cin,
                            to: dst + first * cin, count: (end - first) * cin)
                }
                if end < filterShape.width { (dst + end * cin).update(repeating: 0, count: rowFloats - end * cin) }
                dst += rowFloats
                continue
            }
            for fx in 0..<filterShape.width {
                let ix = ix0 + fx * g.dilationWidth
                if rowInside && ix >= 0 && ix < inputShape.width {
                    dst.update(from: input + ((b * inputShape.height + iy) * inputShape.width + ix) * cin, count: cin)
                } else {
                    dst.update(repeating: 0, count: cin)
                }
                dst += cin
            }
        }
    }

    /// Copies `count` floats. Runs of a few dozen floats (a small-channel layer's window rows)
    /// are copied in vectors here; a library `memcpy` call would cost more than the copy.
    @inline(__always)
    static func copyRun(from source: UnsafePointer<Float>, to destination: UnsafeMutablePointer<Float>, count: Int) {
        guard count <= 64 else {
            destination.update(from: source, count: count)
            return
        }
        let src = UnsafeRawPointer(source), dst = UnsafeMutableRawPointer(destination)
        var i = 0
        while i &+ 8 <= count {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self), toByteOffset: i &* 4, as: SIMD8<Float>.self)
            i &+= 8
        }
        if i &+ 4 <= count {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self), toByteOffset: i &* 4, as: SIMD4<Float>.self)
            i &+= 4
        }
        while i < count {
            destination[i] = source[i]
            i &+= 1
        }
    }
}

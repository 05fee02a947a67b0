import TestSupport
import Testing
import Kernels

/// The GEMM micro-kernels of every variant at the edges of their tiles, through pointwise
/// convolutions (one GEMM over the input): every row count from 1 to one past a tile and some
/// that split into tiles of two heights, every column count from 1 to one past a tile's width
/// (the AVX-512 tiles take at most 8 columns in half-width registers), reductions of 0, 1, odd
/// and more than one depth block (partial sums carried from block to block), with and without a residual (as
/// wide as the output, or narrower, the rest adding zero) and a clamp.
@Suite struct MicroKernelEdgeTests {
    /// A 1 x `rows` image of `depth` channels through a 1x1 convolution to `columns` channels.
    private func geometry(rows: Int) -> ConvGeometry {
        ConvGeometry.make(padding: .valid, inputHeight: 1, inputWidth: rows, filterHeight: 1, filterWidth: 1,
                          strideHeight: 1, strideWidth: 1)!.geometry
    }

    @Test(arguments: hostVariants)
    func floatTileEdgesMatchReference(variant: InstructionSet) {
        let tile = kernels(variant).floatGEMMTile
        var rng = SplitMix64(seed: 11)
        var compared = 0
        // Past a tile, row counts that split into eight- and seven-row tiles (see RowTiling),
        // and at depth 300 into row blocks whose last takes the rows short of a whole one.
        let rowCounts = Array(1...(tile.rows + 1)) + [42, 49, 53, 101]
        // Past a tile, column counts whose panels split into tiles of different widths (the
        // AVX-512 tiles take up to three panels: 5 panels go 3 + 2, 7 go 3 + 2 + 2), and
        // whose last tile ends in a half panel of 8 columns or fewer (from 17 to 24 and 33 to
        // 40 columns already; 56 go 2 + 1.5 panels, 88 go 3 + 2.5).
        let columnCounts = Array(1...(tile.columns + 1)) + [56, 80, 88, 97]
        for depth in [0, 1, 7, 300] {
            for rows in rowCounts {
                for columns in columnCounts {
                    let input = NHWC(batch: 1, height: 1, width: rows, channels: depth)
                    let filter = NHWC(batch: columns, height: 1, width: 1, channels: depth)
                    let output = NHWC(batch: 1, height: 1, width: rows, channels: columns)
                    let clamps = (rows + columns) % 2 == 0
                    let activation = clamps ? ActivationRange<Float>(min: -0.5, max: 0.5) : ActivationRange(min: -.infinity, max: .infinity)
                    let params = Conv2DParams(geometry: geometry(rows: rows), activation: activation)
                    let x = rng.floats(input.elementCount), w = rng.floats(filter.elementCount), b = rng.floats(columns)
                    // Every third case adds a residual, every other one of those narrower than the output.
                    let skipChannels = rows % 3 != 0 ? 0 : columns % 2 == 0 ? columns : max(1, columns - 1)
                    let skip = rng.floats(rows * skipChannels)
                    let linear = Conv2DParams(geometry: params.geometry, activation: ActivationRange(min: -.infinity, max: .infinity))
                    var want = referenceConv2D(linear, x, input, w, filter, b, output)
                    for r in 0..<rows {
                        for c in 0..<columns {
                            let add = c < skipChannels ? skip[r * skipChannels + c] : 0
                            want[r * columns + c] = activation.clamp(want[r * columns + c] + add)
                        }
                    }
                    let got = optimizedConv2D(variant, params, x, input, w, filter, b, output, pool: ThreadPool(threadCount: 1),
                                              residual: skipChannels > 0 ? skip : nil, residualChannels: skipChannels)
                    #expect(maxAbsDifference(got, want) <= reductionTolerance(depth),
                            "\(variant): \(rows) rows, \(columns) columns, depth \(depth), residual \(skipChannels)")
                    compared += 1
                }
            }
        }
        #expect(compared == 4 * rowCounts.count * columnCounts.count)
    }

    @Test(arguments: hostVariants)
    func int8TileEdgesMatchReference(variant: InstructionSet) {
        let tile = kernels(variant).int8GEMMTile
        var rng = SplitMix64(seed: 12)
        // Whole quads of depth (4, 68) let a pointwise layer be read in place.
        for depth in [1, 2, 3, 4, 33, 68] {
            for rows in 1...(tile.rows + 1) {
                for columns in 1...(tile.columns + 1) {
                    let input = NHWC(batch: 1, height: 1, width: rows, channels: depth)
                    let filter = NHWC(batch: columns, height: 1, width: 1, channels: depth)
                    let output = NHWC(batch: 1, height: 1, width: rows, channels: columns)
                    let params = QuantizedConvParams.make(
                        geometry: geometry(rows: rows), input: AffineQuantization(scale: 0.02, zeroPoint: Int32(rows % 7) - 3),
                        filterScales: (0..<columns).map { Float(1 + $0 % 5) * 0.004 }, filterZeroPoint: 0,
                        output: AffineQuantization(scale: 0.05, zeroPoint: Int32(columns % 5) - 2), outputChannels: columns,
                        activation: rows % 2 == 0 ? .relu : .none, qmin: -128, qmax: 127)!
                    let x = (0..<input.elementCount).map { _ in Int8.random(in: -128...127, using: &rng) }
                    let w = (0..<filter.elementCount).map { _ in Int8.random(in: -127...127, using: &rng) }
                    let bias = (0..<columns).map { _ in Int32.random(in: -3000...3000, using: &rng) }
                    var want = [Int8](repeating: 0, count: output.elementCount)
                    x.withUnsafeBufferPointer { i in w.withUnsafeBufferPointer { f in bias.withUnsafeBufferPointer { bb in
                        want.withUnsafeMutableBufferPointer {
                            Conv2D.Quantized.reference(params, ConvOperands(input: i.baseAddress!, inputShape: input, filter: f.baseAddress!, filterShape: filter,
                                                       bias: bb.baseAddress, output: $0.baseAddress!, outputShape: output))
                        }
                    }}}
                    let kernel = w.withUnsafeBufferPointer { f in
                        bias.withUnsafeBufferPointer { bb in
                            kernels(variant).int8Conv2D(params, f.baseAddress!, filter, bb.baseAddress, input, output, 1)!
                        }
                    }
                    var got = [Int8](repeating: 0, count: output.elementCount)
                    var scratch = [Int8](repeating: 0, count: max(1, kernel.scratchBytes))
                    x.withUnsafeBufferPointer { i in scratch.withUnsafeMutableBufferPointer { s in got.withUnsafeMutableBufferPointer {
                        kernel.run(input: i.baseAddress!, output: $0.baseAddress!, scratch: s.baseAddress, pool: ThreadPool(threadCount: 1))
                    }}}
                    #expect(got == want, "\(variant): \(rows) rows, \(columns) columns, depth \(depth)")
                }
            }
        }
    }
}

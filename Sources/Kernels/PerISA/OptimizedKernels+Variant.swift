#if TFLITE_ISA_MODULE
import Kernels
#endif
// This copy's entry in the kernel configuration: every variant module compiles this folder with
// its own `-target-cpu` and defines, and exposes the table below as `optimizedKernels`.

/// The instruction set this copy of the kernels is compiled for (its module's defines).
#if TFLITE_VNNI
let compiledInstructionSet = InstructionSet.avx512vnni
#elseif TFLITE_AVX512
let compiledInstructionSet = InstructionSet.avx512
#elseif TFLITE_AVX2
let compiledInstructionSet = InstructionSet.avx2
#else
let compiledInstructionSet = InstructionSet.baseline
#endif

#if TFLITE_ISA_MODULE
/// This module's optimised kernels. Call nothing in them before `KernelSelection` has checked
/// that the CPU has ``InstructionSet/requiredFeatures`` of ``compiledInstructionSet``.
public let optimizedKernels = perISAKernels()
#endif

/// A prepared kernel's name: its path and this copy's instruction set.
private func kernelName(_ path: String) -> String { "\(path)/\(compiledInstructionSet)" }

/// The table of this copy's kernels.
func perISAKernels() -> OptimizedKernels {
    OptimizedKernels(
        instructionSet: compiledInstructionSet,
        floatGEMMTile: (GEMM.rowTile, GEMM.tileColumns),
        int8GEMMTile: (Int8GEMM.gatheredTileRows, int8LaneCount * Int8GEMM.tileBlocks),
        floatConv2D: { params, inputShape, filter, filterShape, outputShape, threadCount in
            guard Conv2D.supportsOptimized(inputShape: inputShape, filterShape: filterShape) else { return nil }
            let weights = PackedConv2DWeights(filter: filter, filterShape: filterShape)
            let path = Conv2D.path(params: params, inputShape: inputShape, filterShape: filterShape)
            let scratch = Conv2D.scratchFloatCount(path: path, filterShape: filterShape, threadCount: threadCount)
            return FloatConv2DKernel(name: kernelName("conv2d.f32." + path.rawValue), scratchFloatCount: scratch) {
                input, bias, residual, output, scratch, pool in
                Conv2D.optimized(params: params, path: path, input: input, inputShape: inputShape, weights: weights,
                                 bias: bias, residual: residual, output: output, outputShape: outputShape,
                                 scratch: scratch, pool: pool)
            }
        },
        floatDepthwiseConv2D: { params, inputShape, filterShape, outputShape, threadCount in
            let scratch = DepthwiseConv2D.scratchFloatCount(params: params, inputShape: inputShape, filterShape: filterShape,
                                                            outputShape: outputShape, threadCount: threadCount)
            let path = params.depthMultiplier != 1 ? "reference" : scratch > 0 ? "padded-copy" : "channel-vectors"
            return FloatDepthwiseConv2DKernel(name: kernelName("depthwise.f32." + path), scratchFloatCount: scratch) { input, filter, bias, output, scratch, pool in
                DepthwiseConv2D.optimized(params: params, input: input, inputShape: inputShape, filter: filter,
                                          filterShape: filterShape, bias: bias, output: output, outputShape: outputShape,
                                          scratch: scratch, pool: pool)
            }
        },
        floatFullyConnected: { params, weights, batch, inputDepth, outputDepth in
            let packed = FullyConnected.packWeights(weights, outputDepth: outputDepth, inputDepth: inputDepth)
            return FloatFullyConnectedKernel(name: kernelName("fully-connected.f32.gemm")) { input, bias, output, pool in
                FullyConnected.optimized(params: params, input: input, batch: batch, weights: packed, bias: bias,
                                         output: output, pool: pool)
            }
        },
        floatTransposeConv: { params, inputShape, filter, filterShape, outputShape, threadCount in
            let weights = PackedTransposeConvWeights(filter: filter, filterShape: filterShape)
            return FloatConv2DKernel(name: kernelName("transpose-conv.f32.gemm"),
                                     scratchFloatCount: TransposeConv.scratchFloatCount(filterShape: filterShape,
                                                                                        threadCount: threadCount)) {
                input, bias, _, output, scratch, pool in
                TransposeConv.optimized(params: params, input: input, inputShape: inputShape, weights: weights, bias: bias,
                                        output: output, outputShape: outputShape, scratch: scratch!, pool: pool)
            }
        },
        int8Conv2D: { params, filter, filterShape, bias, inputShape, outputShape, threadCount in
            #if TFLITE_VNNI
            if !Int8DirectRowsLayout.applies(params.geometry, filterShape: filterShape) {
                guard let prepared = RequantizedConvolution(Int8QuadConvLayout(geometry: params.geometry, filter: filter,
                                                                               filterShape: filterShape),
                                                            params: params, bias: bias)
                else { return nil }
                return Int8Kernel(name: kernelName(prepared.layout.readsInputInPlace ? "conv2d.i8.quads-in-place" : "conv2d.i8.gathered-quads"),
                                  scratchBytes: prepared.scratchBytes(outputShape: outputShape, threadCount: threadCount)) {
                    input, output, scratch, pool in
                    prepared.run(input: input, inputShape: inputShape, output: output, outputShape: outputShape, scratch: scratch,
                                 pool: pool)
                }
            }
            #endif
            guard let prepared = PreparedInt8Conv2D(params, filter: filter, filterShape: filterShape, bias: bias,
                                                    inputShape: inputShape, outputShape: outputShape) else { return nil }
            return Int8Kernel(name: kernelName(prepared.direct != nil ? "conv2d.i8.direct-rows" : "conv2d.i8.gathered"),
                              scratchBytes: prepared.scratchCount(outputShape: outputShape, threadCount: threadCount)) {
                input, output, scratch, pool in
                Conv2D.Quantized.optimized(prepared, input: input, inputShape: inputShape, output: output, outputShape: outputShape,
                                           scratch: scratch, pool: pool)
            }
        },
        int8DepthwiseConv2D: { params, depthMultiplier, filter, filterShape, bias, inputShape, outputShape, threadCount in
            // The tap-row kernel takes one filter channel per input channel and symmetric
            // weights with one scale per channel.
            guard depthMultiplier == 1, params.filterOffset == 0, params.outputMultipliers.count == filterShape.channels,
                  let prepared = RequantizedConvolution(Int8DepthwiseLayout(geometry: params.geometry, filter: filter,
                                                                            filterShape: filterShape),
                                                        params: params, bias: bias)
            else { return nil }
            return Int8Kernel(name: kernelName(depthwiseTapGroup == 4 ? "depthwise.i8.quad-rows" : "depthwise.i8.pair-rows"),
                              scratchBytes: prepared.scratchBytes(outputShape: outputShape, threadCount: threadCount)) {
                input, output, scratch, pool in
                prepared.run(input: input, inputShape: inputShape, output: output, outputShape: outputShape, scratch: scratch,
                             pool: pool)
            }
        },
        int8FullyConnected: { params, filter, batch, inputDepth, outputDepth, bias in
            let prepared = PreparedInt8FullyConnected(params, filter: filter, inputDepth: inputDepth, outputDepth: outputDepth,
                                                      bias: bias)
            return Int8Kernel(name: kernelName("fully-connected.i8.dot4"), scratchBytes: 0) { input, output, _, pool in
                FullyConnected.Quantized.optimized(prepared, input: input, batches: batch, filter: filter, output: output, pool: pool)
            }
        },
        hybridConv2D: { params, filter, filterShape, inputShape, outputShape, threadCount in
            // The int8 convolution of this variant: quads on `vpdpbusd` with VNNI, pairs elsewhere.
            #if TFLITE_VNNI
            let path = "conv2d.f32-i8.quads"
            let layout = Int8QuadConvLayout(geometry: params.geometry, filter: filter, filterShape: filterShape)
            #else
            let path = "conv2d.f32-i8.gathered"
            let layout = Int8PairConvLayout(geometry: params.geometry, filter: filter, filterShape: filterShape)
            #endif
            let prepared = HybridConvolution(layout, params: params, order: .filterThenInput, inputShape: inputShape)
            return HybridKernel(name: kernelName(path), scratchBytes: prepared.scratchBytes(outputShape: outputShape, threadCount: threadCount)) {
                input, bias, output, scratch, pool in
                prepared.run(input: input, bias: bias, output: output, outputShape: outputShape, scratch: scratch, pool: pool)
            }
        },
        hybridDepthwiseConv2D: { params, depthMultiplier, filter, filterShape, inputShape, outputShape, threadCount in
            guard depthMultiplier == 1 else { return nil }
            let prepared = HybridConvolution(Int8DepthwiseLayout(geometry: params.geometry, filter: filter, filterShape: filterShape),
                                             params: params, order: .combinedScale, inputShape: inputShape)
            return HybridKernel(name: kernelName(depthwiseTapGroup == 4 ? "depthwise.f32-i8.quad-rows" : "depthwise.f32-i8.pair-rows"),
                                scratchBytes: prepared.scratchBytes(outputShape: outputShape, threadCount: threadCount)) {
                input, bias, output, scratch, pool in
                prepared.run(input: input, bias: bias, output: output, outputShape: outputShape, scratch: scratch, pool: pool)
            }
        },
        hybridFullyConnected: { filter, filterScales, batch, inputDepth, outputDepth, activation, asymmetricInputs in
            let prepared = PreparedHybridFullyConnected(filter: filter, batches: batch, inputDepth: inputDepth, outputDepth: outputDepth,
                                                        filterScales: filterScales, activation: activation,
                                                        asymmetricInputs: asymmetricInputs)
            return HybridKernel(name: kernelName("fully-connected.f32-i8.dot4"), scratchBytes: prepared.scratchBytes) {
                input, bias, output, scratch, pool in
                FullyConnected.Hybrid.optimized(prepared, input: input, filter: filter, bias: bias, output: output, scratch: scratch,
                                                pool: pool)
            }
        },
        blockwiseInt4FullyConnected: { weights, batch, activation in
            HybridKernel(name: kernelName("fully-connected.f32-i4.blockwise"),
                                       scratchBytes: FullyConnected.blockwiseInt4ScratchBytes(batches: batch, inputDepth: weights.columns)) {
                input, bias, output, scratch, pool in
                FullyConnected.BlockwiseInt4.optimized(weights, input: input, batches: batch, bias: bias, activation: activation,
                                                       output: output, scratch: scratch, pool: pool)
            }
        },
        int8Add: { params, count in
            guard let kernel = Int8AddKernel(params) else { return nil }
            return { o, pool in kernel.run(o.a, o.b, output: o.output, count: count, pool: pool) }
        },
        int8Mean: { params, outer, rows, inner in
            guard let kernel = Int8MeanKernel(params, outer: outer, rows: rows, inner: inner) else { return nil }
            return { o, _ in kernel.run(o.input, output: o.output) }
        },
        floatSumOrMean: { divides, outer, rows, inner in
            let kernel = FloatMeanKernel(outer: outer, rows: rows, inner: inner, divides: divides)
            return { o, _ in kernel.run(o.input, output: o.output) }
        },
        bytesToFloat: { signed, input, output, count, pool in
            Cast.bytesToFloatOptimized(signed: signed, input: input, output: output, count: count, pool: pool)
        },
        floatResizeBilinear: { params, inputShape, outputShape in
            Resize.bilinearChannelVectors(params: params, inputShape: inputShape, outputShape: outputShape)
        },
        floatPool: { reduction, params, inputShape, outputShape in
            Pooling.channelVectors(reduction, params: params, inputShape: inputShape, outputShape: outputShape)
        },
        floatArithmetic: { op, plan, activation in
            guard FloatArithmeticVectors.handles(op, plan) else { return nil }
            return { o, pool in FloatArithmeticVectors.run(op, plan: plan, activation: activation, o, pool: pool) }
        },
        floatPrelu: { plan in
            guard plan.layout != .general else { return nil }
            return { o, pool in FloatArithmeticVectors.prelu(plan: plan, o, pool: pool) }
        },
        floatActivation: { function, count in
            guard FloatActivations.handles(function) else { return nil }
            return { o, pool in FloatActivations.apply(function, input: o.input, output: o.output, count: count, threads: pool) }
        })
}

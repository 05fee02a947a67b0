// kernelbench: times one optimised kernel on one layer shape, with the same deterministic
// inputs every run, and prints the best and median of several timed batches. The kernels run
// on 1 thread unless a last argument THREADS says otherwise (`kernelbench gemm 56 8 48 2`).
//
//   kernelbench gemm H K N          pointwise convolution: H*H rows, depth K, N output channels
//   kernelbench depthwise H C S     3x3 depthwise convolution, H*H*C input, stride S, SAME padding
//   kernelbench int8gemm H K N      int8 pointwise convolution (the int8 GEMM and requantisation)
//   kernelbench pool T C W          the thread pool's hand-over: a job of C chunks on T threads,
//                                   each chunk summing W floats (with tiny chunks the caller
//                                   often runs them all before a worker claims one)
//
// It runs the instruction-set variant a new interpreter would (the widest this CPU runs);
// TFLITE_ISA=baseline|avx2|avx512|avx512vnni lowers it, to compare variants:
//   swift run -c release --package-path Benchmarks/KernelBench kernelbench gemm 56 8 48
//   TFLITE_ISA=avx2 swift run -c release --package-path Benchmarks/KernelBench kernelbench gemm 56 8 48
import Kernels
import KernelSelection
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func seconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

/// `count` floats cycling through a few small values, the same on every run.
func values(_ count: Int, period: Int) -> UnsafeMutablePointer<Float> {
    let p = UnsafeMutablePointer<Float>.allocate(capacity: max(1, count))
    for i in 0..<count { p[i] = Float(i % period) * 0.1 }
    return p
}

/// Runs `body` in 7 batches of `repeats` calls and prints the best and median batch's time per call.
func time(_ label: String, flops: Double, repeats: Int, _ body: () -> Void) {
    body()
    var perCall: [Double] = []
    for _ in 0..<7 {
        let start = seconds()
        for _ in 0..<repeats { body() }
        perCall.append((seconds() - start) / Double(repeats))
    }
    perCall.sort()
    let best = perCall[0], median = perCall[perCall.count / 2]
    let gflops = flops / best / 1e9
    // Tenths of a microsecond: the pool's hand-over takes less than one.
    func microseconds(_ t: Double) -> Double { (t * 1e7).rounded() / 10 }
    print("\(label): best \(microseconds(best)) µs, median \(microseconds(median)) µs, "
          + "\(Int(gflops.rounded())) GFLOP/s at best")
}

let usage = "usage: kernelbench gemm H K N [THREADS] | kernelbench depthwise H C STRIDE [THREADS]"
    + " | kernelbench int8gemm H K N [THREADS]"
    + " | kernelbench pool THREADS CHUNKS WORK"
let arguments = Array(CommandLine.arguments.dropFirst())
let numbers = arguments.dropFirst().compactMap { Int($0) }
guard let kind = arguments.first, numbers.count == 3 || (numbers.count == 4 && kind != "pool"),
      numbers.allSatisfy({ $0 > 0 }) else {
    print(usage)
    exit(2)
}
let relu6 = ActivationRange<Float>(min: 0, max: 6)
let kernels = KernelSelection.best
let threads = numbers.count == 4 ? numbers[3] : 1
let pool = ThreadPool(threadCount: threads)
print("kernels: \(kernels.instructionSet), \(threads) thread(s)")
switch kind {
case "gemm":
    let (h, k, n) = (numbers[0], numbers[1], numbers[2])
    let m = h * h
    let a = values(m * k, period: 7), w = values(n * k, period: 5), bias = values(n, period: 3)
    let c = UnsafeMutablePointer<Float>.allocate(capacity: m * n)
    let geometry = ConvGeometry.make(padding: .valid, inputHeight: h, inputWidth: h, filterHeight: 1, filterWidth: 1,
                                     strideHeight: 1, strideWidth: 1)!.geometry
    let shape = NHWC(batch: 1, height: h, width: h, channels: k)
    let kernel = kernels.floatConv2D(Conv2DParams(geometry: geometry, activation: relu6), shape, w,
                                     NHWC(batch: n, height: 1, width: 1, channels: k),
                                     NHWC(batch: 1, height: h, width: h, channels: n), threads)!
    time("gemm \(h)x\(h) depth \(k) -> \(n)", flops: 2 * Double(m * k * n), repeats: 50) {
        kernel.run(input: a, bias: bias, output: c, scratch: nil, pool: pool)
    }
case "depthwise":
    let (h, channels, stride) = (numbers[0], numbers[1], numbers[2])
    guard let made = ConvGeometry.make(padding: .same, inputHeight: h, inputWidth: h, filterHeight: 3, filterWidth: 3,
                                       strideHeight: stride, strideWidth: stride) else {
        print("kernelbench: no output for that shape")
        exit(2)
    }
    let input = NHWC(batch: 1, height: h, width: h, channels: channels)
    let output = NHWC(batch: 1, height: made.outputHeight, width: made.outputWidth, channels: channels)
    let filter = NHWC(batch: 1, height: 3, width: 3, channels: channels)
    let params = DepthwiseConv2DParams(geometry: made.geometry, depthMultiplier: 1, activation: relu6)
    let x = values(input.elementCount, period: 7), f = values(filter.elementCount, period: 5)
    let bias = values(channels, period: 3), y = UnsafeMutablePointer<Float>.allocate(capacity: output.elementCount)
    let kernel = kernels.floatDepthwiseConv2D(params, input, filter, output, threads)
    let scratch = kernel.scratchFloatCount > 0 ? values(kernel.scratchFloatCount, period: 1) : nil
    time("depthwise 3x3 \(h)x\(h)x\(channels) stride \(stride)", flops: 2 * Double(output.elementCount * 9), repeats: 100) {
        kernel.run(input: x, filter: f, bias: bias, output: y, scratch: scratch, pool: pool)
    }
case "int8gemm":
    let (h, k, n) = (numbers[0], numbers[1], numbers[2])
    let geometry = ConvGeometry.make(padding: .valid, inputHeight: h, inputWidth: h, filterHeight: 1, filterWidth: 1,
                                     strideHeight: 1, strideWidth: 1)!.geometry
    // Per-channel rescales spread over a few powers of two, as real layers' are.
    let multipliers = (0..<n).map { QuantizedMultiplier(0.0007 * Double(1 + $0 % 13)) }
    let params = QuantizedConvParams(geometry: geometry, inputOffset: 3, filterOffset: 0, outputOffset: -5,
                                     outputMultipliers: multipliers, activation: ActivationRange(min: -128, max: 127))
    let input = NHWC(batch: 1, height: h, width: h, channels: k), output = NHWC(batch: 1, height: h, width: h, channels: n)
    let x = UnsafeMutablePointer<Int8>.allocate(capacity: input.elementCount)
    for i in 0..<input.elementCount { x[i] = Int8(truncatingIfNeeded: i % 251 - 125) }
    let f = UnsafeMutablePointer<Int8>.allocate(capacity: n * k)
    for i in 0..<(n * k) { f[i] = Int8(truncatingIfNeeded: i % 241 - 120) }
    let bias = UnsafeMutablePointer<Int32>.allocate(capacity: n)
    for i in 0..<n { bias[i] = Int32(i % 17) * 100 - 800 }
    guard let kernel = kernels.int8Conv2D(params, f, NHWC(batch: n, height: 1, width: 1, channels: k), bias, input, output, threads)
    else {
        print("kernelbench: the optimised int8 path does not apply")
        exit(2)
    }
    let y = UnsafeMutablePointer<Int8>.allocate(capacity: output.elementCount)
    let scratch = UnsafeMutablePointer<Int8>.allocate(capacity: max(1, kernel.scratchBytes))
    time("int8 gemm \(h)x\(h) depth \(k) -> \(n)", flops: 2 * Double(h * h * k * n), repeats: 50) {
        kernel.run(input: x, output: y, scratch: scratch, pool: pool)
    }
case "pool":
    let (poolThreads, chunks, work) = (numbers[0], numbers[1], numbers[2])
    let jobPool = ThreadPool(threadCount: poolThreads)
    let data = values(chunks * work, period: 7)
    let sums = UnsafeMutablePointer<Float>.allocate(capacity: chunks)
    time("pool: \(poolThreads) threads, \(chunks) chunks of \(work) floats", flops: Double(chunks * work), repeats: 2000) {
        jobPool.parallelFor(count: chunks, chunks: chunks) { _, range in
            for c in range {
                var s: Float = 0
                for i in 0..<work { s += data[c * work + i] }
                sums[c] = s
            }
        }
    }
default:
    print(usage)
    exit(2)
}

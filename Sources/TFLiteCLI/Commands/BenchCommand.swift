import Foundation
import TFLiteRuntime

/// `tflite bench`: times repeated invocations of a model on deterministic inputs.
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "time a model: min/median/max over repeated runs, optional per-op profile"
    static let help = """
        Usage: tflite bench MODEL [--runs N] [--warmup N] [--threads N] [--signature KEY]
                            [--profile] [--profile-nodes] [--count-allocations]
                            [--time-limit SECONDS] [--json]

        Fills the inputs with deterministic pseudo-random data in the input type's range,
        runs WARMUP untimed invocations, then RUNS timed ones, and prints min, median and
        max in milliseconds. The last line is always `median_ms: <number>`. Before them: the
        instruction-set variant of the kernels (`kernels:`), the time to load and validate the
        model and the time to prepare it (plan memory, pack weights; not filling the inputs)
        (`load_ms`, `prepare_ms`),
        and the process's peak resident memory after warm-up and after the timed runs
        (`peak_rss_kib`; equal when invocations allocate nothing that stays).

        Options:
          --runs N      timed invocations (default 20)
          --warmup N    untimed invocations first (default 3)
          --threads N   worker threads (default: one per core)
          --signature KEY
                        time this SignatureDef (e.g. a transformer's `decode`) instead
                        of the main graph
          --profile     also print a per-op table: op, nodes, total ms per run, share of
                        the run, GFLOP/s for convolutions and fully connected layers
          --profile-nodes
                        also print one line per node in execution order: node index,
                        op, output shape, median ms, GFLOP/s, and the kernel it runs
                        (an optimised one with its instruction-set variant, e.g.
                        `conv2d.i8.gathered/avx512vnni`, or a reference one, e.g.
                        `mean.f32.reference`)
          --count-allocations
                        then run RUNS more invocations under glibc's malloc tracer and print
                        the heap allocations per invocation (0 expected after warm-up; needs
                        glibc 2.34 or later: the tool reruns itself with libc_malloc_debug.so.0
                        preloaded)
          --time-limit S
                        stop when one invocation runs longer than S seconds (default
                        300; 0: no limit)
          --json        print one JSON object instead of the lines above: "model",
                        "threads", "runs", "warmup", "kernels", "load_ms", "prepare_ms",
                        "arena_bytes", "tensor_bytes", "peak_rss_kib" {"warm", "end"},
                        "min_ms", "median_ms", "max_ms"; with --profile "ops" [{"op",
                        "nodes", "ms_per_run", "share", "gflops"}], with --profile-nodes
                        "nodes" [{"node", "op", "shape", "median_ms", "gflops", "kernel"}],
                        with --count-allocations "allocations_per_invoke"

        The optimised kernels are compiled once per instruction set (baseline, avx2, avx512,
        avx512vnni on x86-64) and the widest one this CPU runs is used; the `kernels:` line
        names it. The environment variable TFLITE_ISA=NAME lowers the choice (never above what
        the CPU has), for comparing variants.

        Example:
          tflite bench Models/efficientnet_lite0.tflite --threads 1 --profile
          TFLITE_ISA=avx2 tflite bench Models/efficientnet_lite0.tflite --threads 1
          tflite bench Models/efficientnet_lite0.tflite --threads 1 --profile-nodes
        """

    static func run(_ arguments: inout Arguments) throws {
        let runs = try arguments.intOption("--runs", in: 1...100_000) ?? 20
        let warmup = try arguments.intOption("--warmup", in: 0...100_000) ?? 3
        let threads = try arguments.intOption("--threads", in: 1...256)
        let profileNodes = arguments.flag("--profile-nodes")
        let profile = arguments.flag("--profile") || profileNodes
        let countAllocations = arguments.flag("--count-allocations")
        let json = arguments.flag("--json")
        let signature = try arguments.option("--signature")
        var options = Interpreter.Options(threadCount: threads)
        options.timeLimit = try arguments.timeLimitOption()
        let modelPath = try arguments.positionals(exactly: "MODEL")[0]
        if countAllocations && !MallocTrace.isTracedCopy {
            // The tracer must be loaded before the process starts.
            exit(try MallocTrace.rerunTraced())
        }

        let loadStart = DispatchTime.now().uptimeNanoseconds
        let interpreter = try Interpreter(modelPath: modelPath, options: options)
        let prepareStart = DispatchTime.now().uptimeNanoseconds
        let invoke: () throws -> Void
        let invokeProfiled: () throws -> [NodeTiming]
        // Prepare ends with the allocation, as LiteRT's `allocate_tensors()` does: filling the
        // inputs is the caller's work.
        var prepareEnd: UInt64 = 0
        if let signature {
            let runner = try interpreter.signatureRunner(key: signature)
            try runner.allocateTensors()
            prepareEnd = DispatchTime.now().uptimeNanoseconds
            for (i, name) in runner.inputNames.enumerated() {
                try runner.copy(DeterministicInput.bytes(for: try runner.input(named: name), seed: UInt64(i + 1)), toInputNamed: name)
            }
            invoke = { try runner.invoke() }
            invokeProfiled = { try runner.invokeProfiled() }
        } else {
            try interpreter.allocateTensors()
            prepareEnd = DispatchTime.now().uptimeNanoseconds
            for i in 0..<interpreter.inputTensorCount {
                let input = try interpreter.input(at: i)
                try interpreter.copy(DeterministicInput.bytes(for: input, seed: UInt64(i + 1)), toInputAt: i)
            }
            invoke = { try interpreter.invoke() }
            invokeProfiled = { try interpreter.invokeProfiled() }
        }
        for _ in 0..<warmup { try invoke() }
        let warmRSS = PeakMemory.residentKiB()
        var times: [Double] = []
        times.reserveCapacity(runs)
        var perOp: [String: (nodes: Set<Int>, ns: UInt64, flops: Int)] = [:]
        var perNode: [[NodeTiming]] = []
        for _ in 0..<runs {
            if profile {
                let timings = try invokeProfiled()
                perNode.append(timings)
                times.append(Double(timings.reduce(0) { $0 + $1.nanoseconds }) / 1e6)
                for t in timings {
                    var entry = perOp[t.op] ?? ([], 0, 0)
                    entry.nodes.insert(t.node)
                    entry.ns += t.nanoseconds
                    entry.flops += t.flops ?? 0
                    perOp[t.op] = entry
                }
            } else {
                let start = DispatchTime.now().uptimeNanoseconds
                try invoke()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
        }
        let endRSS = PeakMemory.residentKiB()
        // Invocations only: the timed loop's bookkeeping would allocate.
        let allocations = countAllocations ? try MallocTrace.countAllocations { for _ in 0..<runs { try invoke() } } : nil
        let sorted = times.sorted()
        let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        let stats = interpreter.memoryStatistics
        let threadCount = interpreter.options.threadCount ?? ProcessInfo.processInfo.activeProcessorCount
        let loadMs = Double(prepareStart - loadStart) / 1e6, prepareMs = Double(prepareEnd - prepareStart) / 1e6
        let opRows = perOp.sorted(by: { $0.value.ns > $1.value.ns }).map { op, e in
            OpRow(op: op, nodes: e.nodes.count, msPerRun: Double(e.ns) / 1e6 / Double(runs),
                  share: Double(e.ns) / Double(max(1, perOp.values.reduce(0) { $0 + $1.ns })),
                  gflops: e.flops > 0 ? Double(e.flops) / Double(e.ns) : nil)
        }
        let nodeRows = (perNode.first ?? []).enumerated().map { i, t in
            let ns = perNode.map { Double($0[i].nanoseconds) }.sorted()[perNode.count / 2]
            return NodeRow(timing: t, medianMs: ns / 1e6, gflops: t.flops.map { Double($0) / ns })
        }
        let allocationsPerInvoke = allocations.map { Double($0) / Double(runs) }

        if json {
            var object: [String: Any] = [
                "model": modelPath, "threads": threadCount, "runs": runs, "warmup": warmup,
                "kernels": "\(interpreter.instructionSet)", "load_ms": loadMs, "prepare_ms": prepareMs,
                "arena_bytes": stats.arenaBytes, "tensor_bytes": stats.tensorBytes,
                "peak_rss_kib": ["warm": warmRSS, "end": endRSS],
                "min_ms": sorted.first!, "median_ms": median, "max_ms": sorted.last!,
            ]
            if profile { object["ops"] = opRows.map(\.json) }
            if profileNodes { object["nodes"] = nodeRows.map(\.json) }
            object["allocations_per_invoke"] = allocationsPerInvoke
            print(try JSONOutput.string(object))
            return
        }
        print("model: \(modelPath)")
        print("threads: \(interpreter.options.threadCount.map(String.init) ?? "default (\(threadCount))"), runs: \(runs), warmup: \(warmup)")
        print("kernels: \(interpreter.instructionSet)")
        print(String(format: "load_ms: %.3f, prepare_ms: %.3f", loadMs, prepareMs))
        print("arena: \(stats.arenaBytes) bytes (tensors placed in it: \(stats.tensorBytes) bytes)")
        print("peak_rss_kib: \(warmRSS) after warm-up, \(endRSS) after the timed runs")
        if profile {
            print("")
            print("op".padding(toLength: 32, withPad: " ", startingAt: 0) + "nodes   ms/run   share   GFLOP/s")
            for row in opRows {
                let gflops = row.gflops.map { String(format: "%9.2f", $0) } ?? "         "
                print(row.op.padding(toLength: 32, withPad: " ", startingAt: 0)
                      + String(format: "%5d %8.3f %6.1f%% ", row.nodes, row.msPerRun, 100 * row.share) + gflops)
            }
            print("")
        }
        if profileNodes {
            // Four decimals: the small layers of a model run in a few microseconds.
            print("node  op                              output shape          median ms   GFLOP/s  kernel")
            for row in nodeRows {
                let t = row.timing
                let gflops = row.gflops.map { String(format: "%9.2f", $0) } ?? "         "
                print(String(format: "%4d  ", t.node) + t.op.padding(toLength: 32, withPad: " ", startingAt: 0)
                      + "\(t.outputShape)".padding(toLength: 22, withPad: " ", startingAt: 0)
                      + String(format: "%9.4f ", row.medianMs) + gflops + "  " + (t.kernel ?? "-"))
            }
            print("")
        }
        if let allocations {
            print("allocations: \(allocations) in \(runs) invocations")
            print("allocations_per_invoke: \(allocations % runs == 0 ? String(allocations / runs) : String(format: "%.2f", Double(allocations) / Double(runs)))")
        }
        // Four decimals: a model of a few layers runs in well under a microsecond.
        print(String(format: "min_ms: %.4f", sorted.first!))
        print(String(format: "max_ms: %.4f", sorted.last!))
        print(String(format: "median_ms: %.4f", median))
    }

    /// One line of the per-op profile.
    private struct OpRow {
        let op: String, nodes: Int, msPerRun: Double, share: Double, gflops: Double?

        var json: [String: Any] {
            var o: [String: Any] = ["op": op, "nodes": nodes, "ms_per_run": msPerRun, "share": share]
            o["gflops"] = gflops
            return o
        }
    }

    /// One line of the per-node profile (the first profiled run's timing, the median time).
    private struct NodeRow {
        let timing: NodeTiming, medianMs: Double, gflops: Double?

        var json: [String: Any] {
            var o: [String: Any] = ["node": timing.node, "op": timing.op, "shape": timing.outputShape, "median_ms": medianMs]
            o["gflops"] = gflops
            o["kernel"] = timing.kernel
            return o
        }
    }
}

/// Reproducible inputs for benchmarks: a fixed-seed generator, values within the type's
/// natural range (floats in [-1, 1]).
enum DeterministicInput {
    static func bytes(for tensor: Tensor, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 11
        }
        let n = tensor.elementCount
        switch tensor.dataType {
        case .float32:
            let v = (0..<n).map { _ in Float(Double(next() % 2_000_001) / 1_000_000 - 1) }
            return v.withUnsafeBytes { [UInt8]($0) }
        case .uInt8, .int8, .bool:
            return (0..<n).map { _ in UInt8(truncatingIfNeeded: tensor.dataType == .bool ? next() & 1 : next()) }
        default:
            // Integer inputs (indices, sizes) get small non-negative values.
            let size = tensor.data.count / max(n, 1)
            var out = [UInt8](repeating: 0, count: tensor.data.count)
            for i in 0..<n { out[i * size] = UInt8(next() % 4) }
            return out
        }
    }
}

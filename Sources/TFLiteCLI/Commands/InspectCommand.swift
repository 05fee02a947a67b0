import Foundation
import TFLiteRuntime

/// `tflite inspect MODEL [--json] [--stats]`: what a model holds, without running it.
struct InspectCommand: Command {
    static let name = "inspect"
    static let summary = "show a model's inputs, outputs, operators, signatures and metadata"
    static let help = """
        Usage: tflite inspect MODEL [--json] [--stats]

        Loads and validates MODEL (a .tflite file) and prints a summary: each subgraph's
        inputs and outputs (name, shape, dtype, quantization), the operator histogram over
        all subgraphs, tensor and subgraph counts, signatures, metadata entries, the
        total bytes of constant weights, and the kernel each node of subgraph 0 runs on
        this CPU (which needs the model allocated; when that fails, the reason is printed
        instead).

        Options:
          --json    print one JSON object instead:
                    {"subgraphs": [{"name", "inputs": [{"name", "shape", "dtype", ...}],
                    "outputs": [...], "operators", "tensors"}], "ops": {"CONV_2D": 21, ...},
                    "signatures": [{"key", "subgraph", "inputs": [names], "outputs": [names]}],
                    "metadata": [names], "tensors", "weight_bytes", "kernels" (the instruction-set
                    variant of the optimised kernels an interpreter runs here),
                    "node_kernels": [{"node", "op", "kernel", "status"}] (kernel null when
                    status is "fused" or "prepared_when_run") or "node_kernels_error", ...}
          --stats   also report the load time and the resident memory (VmRSS, split into
                    private RssAnon and file-backed RssFile) before and after loading:
                    weights are mapped from the file, not copied, so RssAnon grows only by
                    the decoded tables
          --help    show this help

        Examples:
          tflite inspect Models/efficientnet_lite0.tflite
          tflite inspect model.tflite --json
        """

    static func run(_ arguments: inout Arguments) throws {
        let json = arguments.flag("--json")
        let stats = arguments.flag("--stats")
        let path = try arguments.positionals(exactly: "MODEL")[0]

        let residentBefore = MemoryUsage.current()
        let start = DispatchTime.now().uptimeNanoseconds
        let model: Model
        do {
            model = try Model(path: path)
        } catch {
            throw InspectFailure(description: error.description.hasPrefix("cannot read") ? error.description : "\(path): \(error)")
        }
        let loadNanoseconds = DispatchTime.now().uptimeNanoseconds - start
        let residentAfter = MemoryUsage.current()
        var summary = ModelSummary(model)
        summary.kernels = NodeKernels(model)
        let loadStats = stats ? LoadStats(nanoseconds: loadNanoseconds, residentBefore: residentBefore, residentAfter: residentAfter) : nil

        if json {
            print(try summary.json(path: path, stats: loadStats))
        } else {
            print(summary.text(path: path, stats: loadStats))
        }
    }

}

/// A model that could not be loaded, reported with its path.
struct InspectFailure: Error, CustomStringConvertible {
    var description: String
}

/// This process's resident memory in kB, from /proc/self/status.
struct MemoryUsage {
    /// All resident pages (VmRSS).
    var total: Int
    /// Private anonymous pages (RssAnon): heap and stacks; a copied model would land here.
    var anonymous: Int
    /// File-backed pages (RssFile): mapped files, including a mapped model.
    var file: Int

    /// The current figures, or nil where /proc is not available.
    static func current() -> MemoryUsage? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        var values: [String: Int] = [:]
        for line in status.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if words.count >= 2, let value = Int(words[1]) { values[String(words[0])] = value }
        }
        guard let total = values["VmRSS:"], let anonymous = values["RssAnon:"], let file = values["RssFile:"] else { return nil }
        return MemoryUsage(total: total, anonymous: anonymous, file: file)
    }
}

/// Load time and resident memory around the load.
struct LoadStats {
    var nanoseconds: UInt64
    var residentBefore: MemoryUsage?
    var residentAfter: MemoryUsage?

    var milliseconds: Double { Double(nanoseconds) / 1e6 }
}

/// Everything `inspect` reports, gathered once from a loaded model.
struct ModelSummary {
    struct TensorInfo {
        var name: String
        var shape: [Int]
        var shapeSignature: [Int]?
        var dtype: String
        var scales: [Float]
        var zeroPoints: [Int64]
        var quantizedDimension: Int
    }

    struct SubgraphInfo {
        var name: String
        var inputs: [TensorInfo]
        var outputs: [TensorInfo]
        var operators: Int
        var tensors: Int
    }

    var fileBytes: Int
    var version: UInt32
    var description: String?
    var subgraphs: [SubgraphInfo]
    var ops: [String: Int]
    var signatures: [(key: String, subgraph: Int, inputs: [String], outputs: [String])]
    var metadata: [(name: String, bytes: Int)]
    var tensors: Int
    var weightBytes: Int
    var weightBuffers: Int
    var kernels: NodeKernels?

    init(_ model: Model) {
        let schema = model.schema
        fileBytes = model.fileBytes.count
        version = schema.version
        description = schema.description
        subgraphs = schema.subgraphs.map { subgraph in
            func info(_ index: Int32) -> TensorInfo {
                let tensor = subgraph.tensors[Int(index)]
                let signature = tensor.shapeSignature.map { Int($0) }
                return TensorInfo(name: tensor.name ?? "", shape: tensor.shape.map { Int($0) },
                                  shapeSignature: signature.contains(-1) ? signature : nil,
                                  dtype: tensor.type.name.lowercased(),
                                  scales: tensor.quantization?.scale ?? [], zeroPoints: tensor.quantization?.zeroPoint ?? [],
                                  quantizedDimension: Int(tensor.quantization?.quantizedDimension ?? 0))
            }
            return SubgraphInfo(name: subgraph.name ?? "", inputs: subgraph.inputs.map(info), outputs: subgraph.outputs.map(info),
                                operators: subgraph.operators.count, tensors: subgraph.tensors.count)
        }
        ops = model.operatorHistogram()
        signatures = schema.signatureDefs.map { signature in
            (signature.signatureKey ?? "", Int(signature.subgraphIndex),
             signature.inputs.map { $0.name ?? "" }, signature.outputs.map { $0.name ?? "" })
        }
        metadata = schema.metadata.map { ($0.name ?? "", model.bufferData(Int($0.buffer)).count) }
        tensors = schema.subgraphs.reduce(0) { $0 + $1.tensors.count }
        // Weights: the distinct buffers that constant tensors read, in the model file or, by
        // external buffer id, in other files.
        var constantBuffers = Set<Int>(), externalBytes: [UInt32: Int] = [:]
        for (s, subgraph) in schema.subgraphs.enumerated() {
            for (t, tensor) in subgraph.tensors.enumerated() {
                if tensor.externalBuffer != 0 {
                    externalBytes[tensor.externalBuffer] = model.constantData(subgraph: s, tensor: t)?.count ?? 0
                } else if !model.bufferData(Int(tensor.buffer)).isEmpty {
                    constantBuffers.insert(Int(tensor.buffer))
                }
            }
        }
        weightBuffers = constantBuffers.count + externalBytes.count
        weightBytes = constantBuffers.reduce(0) { $0 + model.bufferData($1).count } + externalBytes.values.reduce(0, +)
    }

    // MARK: Text

    func text(path: String, stats: LoadStats?) -> String {
        var lines: [String] = []
        lines.append("Model: \(path) (\(fileBytes) bytes, schema version \(version))")
        if let description, !description.isEmpty { lines.append("Description: \(printable(description))") }
        for (i, subgraph) in subgraphs.enumerated() {
            lines.append("")
            let title = subgraph.name.isEmpty ? "" : " '\(printable(subgraph.name))'"
            lines.append("Subgraph \(i)\(title): \(subgraph.tensors) tensors, \(subgraph.operators) operators")
            lines.append("  Inputs:")
            lines += subgraph.inputs.map { "    " + describe($0) }
            lines.append("  Outputs:")
            lines += subgraph.outputs.map { "    " + describe($0) }
        }
        lines.append("")
        lines.append("Operators (\(ops.values.reduce(0, +)) in all subgraphs):")
        let width = ops.keys.map(\.count).max() ?? 0
        for (name, count) in ops.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }) {
            lines.append("  " + printable(name).padding(toLength: width, withPad: " ", startingAt: 0) + "  \(count)")
        }
        lines.append("")
        lines.append("Tensors: \(tensors) in \(subgraphs.count) subgraph\(subgraphs.count == 1 ? "" : "s")")
        lines.append("Weights: \(weightBytes) bytes in \(weightBuffers) constant buffers")
        if signatures.isEmpty {
            lines.append("Signatures: none")
        } else {
            lines.append("Signatures:")
            for signature in signatures {
                lines.append("  \(printable(signature.key)) (subgraph \(signature.subgraph)): inputs [\(signature.inputs.map(printable).joined(separator: ", "))], outputs [\(signature.outputs.map(printable).joined(separator: ", "))]")
            }
        }
        if metadata.isEmpty {
            lines.append("Metadata: none")
        } else {
            lines.append("Metadata: " + metadata.map { "\(printable($0.name)) (\($0.bytes) bytes)" }.joined(separator: ", "))
        }
        if let kernels {
            lines.append("")
            lines += kernels.text
        }
        if let stats {
            lines.append("")
            lines.append(String(format: "Load time: %.3f ms", stats.milliseconds))
            if let before = stats.residentBefore, let after = stats.residentAfter {
                lines.append("Resident memory (kB): VmRSS \(before.total) -> \(after.total) (+\(after.total - before.total)), "
                             + "RssAnon \(before.anonymous) -> \(after.anonymous) (+\(after.anonymous - before.anonymous)), "
                             + "RssFile \(before.file) -> \(after.file) (+\(after.file - before.file)); file \(fileBytes / 1024) kB")
            }
        }
        return lines.joined(separator: "\n")
    }

    func describe(_ tensor: TensorInfo) -> String {
        var text = "\(printable(tensor.name))  \(tensor.shape) \(tensor.dtype)"
        if let signature = tensor.shapeSignature { text += " (shape signature \(signature))" }
        if tensor.scales.count == 1 {
            text += "  quantized: scale \(tensor.scales[0]), zero point \(tensor.zeroPoints.first ?? 0)"
        } else if tensor.scales.count > 1 {
            text += "  quantized per axis \(tensor.quantizedDimension): \(tensor.scales.count) scales"
        }
        return text
    }

    // MARK: JSON

    func json(path: String, stats: LoadStats?) throws -> String {
        func number(_ value: Float) -> Any { value.isFinite ? Double(value) : NSNull() }
        func tensor(_ t: TensorInfo) -> [String: Any] {
            var object: [String: Any] = ["name": t.name, "shape": t.shape, "dtype": t.dtype]
            if let signature = t.shapeSignature { object["shape_signature"] = signature }
            if !t.scales.isEmpty {
                object["quantization"] = ["scale": t.scales.map(number), "zero_point": t.zeroPoints,
                                          "quantized_dimension": t.quantizedDimension] as [String: Any]
            }
            return object
        }
        var root: [String: Any] = [
            "file": path,
            "bytes": fileBytes,
            "version": Int(version),
            "subgraphs": subgraphs.map { subgraph -> [String: Any] in
                ["name": subgraph.name, "inputs": subgraph.inputs.map(tensor), "outputs": subgraph.outputs.map(tensor),
                 "operators": subgraph.operators, "tensors": subgraph.tensors]
            },
            "ops": ops,
            "signatures": signatures.map { ["key": $0.key, "subgraph": $0.subgraph, "inputs": $0.inputs, "outputs": $0.outputs] as [String: Any] },
            "metadata": metadata.map(\.name),
            "tensors": tensors,
            "weight_bytes": weightBytes,
            "kernels": "\(Interpreter.defaultInstructionSet)",
        ]
        if let description { root["description"] = description }
        if let kernels {
            switch kernels.nodes {
            case .success(let nodes):
                root["node_kernels"] = nodes.map { ["node": $0.node, "op": $0.op, "kernel": $0.kernel.name ?? NSNull(),
                                                    "status": $0.kernel.status] as [String: Any] }
            case .failure(let reason):
                root["node_kernels_error"] = reason.description
            }
        }
        if let stats {
            var object: [String: Any] = ["load_ms": stats.milliseconds]
            if let before = stats.residentBefore, let after = stats.residentAfter {
                object["rss_kb"] = [before.total, after.total]
                object["rss_anon_kb"] = [before.anonymous, after.anonymous]
                object["rss_file_kb"] = [before.file, after.file]
            }
            root["stats"] = object
        }
        let data = try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

/// The kernel each node of subgraph 0 runs on this CPU, from an interpreter allocated with the
/// default options; or why the model could not be allocated.
struct NodeKernels {
    struct Node {
        var node: Int
        var op: String
        var kernel: Interpreter.NodeKernel
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var nodes: Result<[Node], Failure>

    init(_ model: Model) {
        do throws(InterpreterError) {
            let interpreter = try Interpreter(model: model)
            try interpreter.allocateTensors()
            let ops = model.schema.subgraphs[0].operators.map { model.operatorKind(ofCode: Int($0.opcodeIndex)).name }
            nodes = .success(zip(ops, interpreter.nodeKernels).enumerated().map { Node(node: $0, op: $1.0, kernel: $1.1) })
        } catch {
            nodes = .failure(Failure(description: "\(error)"))
        }
    }

    var text: [String] {
        switch nodes {
        case .success(let nodes):
            let width = nodes.map { printable($0.op).count }.max() ?? 0
            return ["Kernels (subgraph 0, \(nodes.count) nodes):"] + nodes.map { node in
                let op = printable(node.op).padding(toLength: width, withPad: " ", startingAt: 0)
                return "  \(node.node)".padding(toLength: 7, withPad: " ", startingAt: 0) + "\(op)  \(node.kernel.description)"
            }
        case .failure(let reason):
            return ["Kernels: unknown, the model could not be allocated: \(printable(reason.description))"]
        }
    }
}

extension Interpreter.NodeKernel {
    /// The kernel's name, or what stands in its place.
    var description: String {
        switch self {
        case .named(let name): name
        case .fused: "(fused into a neighbour)"
        case .preparedWhenRun: "(prepared when it runs: its input shapes depend on values)"
        case .unallocated: "(not allocated)"
        }
    }

    /// `--json`'s word for it.
    var status: String {
        switch self {
        case .named: "named"
        case .fused: "fused"
        case .preparedWhenRun: "prepared_when_run"
        case .unallocated: "unallocated"
        }
    }
}

/// Replaces control characters of names read from an untrusted model before they reach a
/// terminal.
func printable(_ text: String) -> String {
    String(text.unicodeScalars.map { $0.value < 32 || $0.value == 127 ? "?" : Character($0) })
}

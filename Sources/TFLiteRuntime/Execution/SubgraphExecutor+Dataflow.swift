// The dataflow rules a subgraph must follow before any of its nodes is prepared. Each closes
// a way a hostile file could make a kernel read memory nothing wrote, or write memory it does
// not own. Checked at the first allocation rather than at load, so that `tflite inspect` still
// describes a model that cannot run.

extension SubgraphExecutor {
    /// Checks, in operator order, that every tensor a node reads has a value by then (a
    /// subgraph input, a constant, a variable, or an earlier node's output), that nothing is
    /// written twice or over an input or a constant, and that every subgraph output has a
    /// value. This rejects operators out of topological order and a node reading its own output.
    func checkDataflow() throws(InterpreterError) {
        let graph = model.schema.subgraphs[subgraphIndex]
        func name(_ t: Int) -> String { "tensor \(t) '\(tensors[t].name)'" }
        func opName(_ n: Int) -> String { model.operatorKind(ofCode: Int(graph.operators[n].opcodeIndex)).name }
        enum Source { case none, input, constant, variable, written }
        var source = [Source](repeating: .none, count: tensors.count)
        var written = Set<Int32>()
        for op in graph.operators { written.formUnion(op.outputs) }
        for t in tensors.indices {
            if tensors[t].isWeight {
                source[t] = .constant
            } else if tensors[t].isVariable {
                source[t] = .variable
            } else if tensors[t].modelShape.contains(0) && !written.contains(Int32(t)) {
                // A tensor without elements that nothing writes is a zero-size constant (an
                // empty shape, say): there is nothing to read.
                source[t] = .constant
            }
        }
        for t in inputs { source[t] = .input }
        for (n, op) in graph.operators.enumerated() {
            for index in op.inputs where index >= 0 && source[Int(index)] == .none {
                let t = Int(index)
                let writer = graph.operators.indices.first { $0 >= n && graph.operators[$0].outputs.contains(index) }
                throw .invalidNode(node: n, op: opName(n), reason: writer.map {
                    "reads \(name(t)) before node \($0) writes it (nodes out of order, or a node reading its own output)"
                } ?? "reads \(name(t)), which no node writes and which is not an input, a constant or a variable")
            }
            for index in op.outputs where index >= 0 {
                let t = Int(index)
                switch source[t] {
                case .none, .variable: source[t] = .written
                case .input: throw .invalidNode(node: n, op: opName(n), reason: "writes \(name(t)), an input of the subgraph")
                case .constant: throw .invalidNode(node: n, op: opName(n), reason: "writes \(name(t)), a constant")
                case .written: throw .invalidNode(node: n, op: opName(n), reason: "writes \(name(t)), which an earlier node writes")
                }
            }
        }
        for (k, t) in outputs.enumerated() where source[t] == .none {
            throw .invalidShape(tensor: tensors[t].name,
                                reason: "output \(k) of subgraph \(subgraphIndex) is a tensor no node writes (and not an input, a constant or a variable)")
        }
    }
}

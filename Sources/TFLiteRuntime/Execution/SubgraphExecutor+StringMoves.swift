/// Element-moving ops (RESHAPE, GATHER, SLICE, TILE ...) on string tensors, with the op's own
/// byte-generic kernel: while the node is prepared its string tensors pose as int32; at run
/// time each string input is replaced by the numbers of its strings (counted across the
/// inputs), the kernel moves those numbers, and each string output receives the strings its
/// numbers name. So every such op moves strings exactly as it moves numbers.
extension SubgraphExecutor {
    /// The node's string inputs and outputs, or nil when it has none.
    func stringOperands(_ context: PrepareContext) -> (inputs: [Int], outputs: [Int])? {
        func strings(_ list: [Int]) -> [Int] {
            var seen = Set<Int>()
            return list.filter { $0 >= 0 && tensors[$0].type == .string && seen.insert($0).inserted }
        }
        let found = (strings(context.inputIndices), strings(context.outputIndices))
        return found.0.isEmpty && found.1.isEmpty ? nil : found
    }

    func prepareMovingStrings(_ registration: OpRegistration, _ context: inout PrepareContext,
                              strings: (inputs: [Int], outputs: [Int])) throws(InterpreterError) -> NodeKernel {
        guard !strings.inputs.isEmpty, !strings.outputs.isEmpty else {
            throw context.unsupported("strings go in or come out, not both: \(registration.name) only moves them")
        }
        for t in strings.inputs + strings.outputs { tensors[t].type = .int32 }
        defer { for t in strings.inputs + strings.outputs { tensors[t].type = .string } }
        try registration.outputTypes.check(context)
        let kernel = try registration.prepare(&context)
        let node = context.nodeIndex, op = registration.name
        return { (c) throws(InterpreterError) in
            try c.executor.moveStrings(kernel, inputs: strings.inputs, outputs: strings.outputs, context: c, node: node, op: op)
        }
    }

    private func moveStrings(_ kernel: NodeKernel, inputs: [Int], outputs: [Int], context c: InvokeContext,
                             node: Int, op: String) throws(InterpreterError) {
        var views: [PackedStrings.View] = [], firsts: [Int] = []
        var total = 0
        for t in inputs {
            let v = try strings(t)
            views.append(v)
            firsts.append(total)
            total += v.count
        }
        guard total <= Int(Int32.max) else {
            throw .invokeFailed(node: node, op: op, reason: "\(total) strings are more than it can number")
        }
        let count = max(tensors.count, 1)
        let table = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: count)
        defer { table.deallocate() }
        table.initialize(from: c.pointers, count: count)
        var numbers: [AlignedBuffer] = []
        for (k, t) in inputs.enumerated() {
            let b = AlignedBuffer(byteCount: 4 * views[k].count)
            let ids = b.pointer.assumingMemoryBound(to: Int32.self)
            for i in 0..<views[k].count { ids[i] = Int32(firsts[k] + i) }
            table[t] = b.pointer
            numbers.append(b)
        }
        var moved: [AlignedBuffer] = []
        for t in outputs {
            let b = AlignedBuffer(byteCount: 4 * tensors[t].elementCount)
            table[t] = b.pointer
            moved.append(b)
        }
        try kernel(InvokeContext(pointers: table, scratch: c.scratch, threads: c.threads, executor: self))
        for (k, t) in outputs.enumerated() {
            let ids = moved[k].pointer.assumingMemoryBound(to: Int32.self)
            var out = PackedStrings.Builder()
            for i in 0..<tensors[t].elementCount {
                let id = Int(ids[i])
                guard id >= 0, id < total else {
                    throw .invokeFailed(node: node, op: op, reason: "output element \(i) names no input string")
                }
                let source = firsts.lastIndex { $0 <= id }!
                out.append(views[source][id - firsts[source]])
            }
            try storeStrings(out.packed(), shape: tensors[t].shape, in: t)
        }
        withExtendedLifetime(numbers) {}
    }
}

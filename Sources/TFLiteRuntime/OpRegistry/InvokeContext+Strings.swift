/// String tensors at run time (see ``PackedStrings`` and `SubgraphExecutor+Strings.swift`).
extension InvokeContext {
    /// The strings of tensor `t`, validated against its shape.
    func strings(_ t: Int) throws(InterpreterError) -> PackedStrings.View {
        try executor.strings(t)
    }

    /// Replaces string output `t` with `strings`, giving it `shape`.
    func setStrings(_ t: Int, shape: [Int], _ strings: PackedStrings.Builder) throws(InterpreterError) {
        try executor.storeStrings(strings.packed(), shape: shape, in: t)
    }
}

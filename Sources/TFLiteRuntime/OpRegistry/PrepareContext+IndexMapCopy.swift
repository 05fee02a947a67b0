import Kernels

extension PrepareContext {
    /// The kernel of an op that only rearranges elements (TRANSPOSE, TILE, PAD, SLICE, ...):
    /// input 0 copied to output 0 by the index map `plan` makes for the input's element size.
    func indexMapCopyKernel(_ plan: (_ elementSize: Int) -> IndexMapCopy) throws(InterpreterError) -> NodeKernel {
        let x = try input(0)
        let copy = plan(try elementSize(x, role: "input"))
        let xi = x.index, yi = try output(0).index
        return { c in copy.run(input: c.raw(xi), output: c.raw(yi)) }
    }
}

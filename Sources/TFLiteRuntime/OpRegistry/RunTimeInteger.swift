/// An integer scalar input (int32 or int64) read when the kernel runs, for inputs such as
/// `k` or `depth` that are not constant at prepare.
struct RunTimeInteger: Sendable {
    let tensor: Int
    let wide: Bool

    /// Describes input `i` of `ctx`, which must be an int32 or int64 scalar (or one element).
    init(_ ctx: PrepareContext, input i: Int, what: String) throws(InterpreterError) {
        let t = try ctx.input(i)
        guard t.type == .int32 || t.type == .int64, t.elementCount == 1 else {
            throw ctx.invalid("\(what) (input \(i)) must be one int32 or int64 value, is \(t.type) \(t.shape)")
        }
        tensor = t.index
        wide = t.type == .int64
    }

    /// The value in the running subgraph.
    func read(_ c: InvokeContext) -> Int {
        wide ? Int(truncatingIfNeeded: c.data(tensor, as: Int64.self)[0]) : Int(c.data(tensor, as: Int32.self)[0])
    }
}

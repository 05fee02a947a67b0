/// What type an op writes its outputs in, declared by its registration
/// (``OpRegistration/outputTypes``) and checked before its prepare runs. Kernels store the
/// type they compute; an output declared with another type (int8 where float32 lanes are
/// stored, say) would be written past its buffer, so the rule is enforced for every op rather
/// than trusted to each prepare.
enum OutputTypeRule: Equatable {
    /// Every output has the type of input `k` (most ops: arithmetic, convolutions, data
    /// movement, activations, reductions).
    case sameAs(input: Int)
    /// Output 0 has the type of input `k`; the others (indices, counts) are checked by the op.
    case firstSameAs(input: Int)
    /// Every output takes the type of input `k`, whatever the model declares: LiteRT's ADD,
    /// SUB and MUL set their output's type at prepare, and models rely on it (a quantised ADD
    /// whose output is declared float32 runs there, and yields int8).
    case retypedAs(input: Int)
    /// Every output is bool (comparisons).
    case bool
    /// The op chooses or converts the type (CAST, QUANTIZE, index outputs, hybrid kernels,
    /// control flow, custom ops) and checks its outputs itself.
    case checkedByOp

    /// Throws when an output of the node is declared with a type its kernel does not write.
    func check(_ ctx: PrepareContext) throws(InterpreterError) {
        let (source, outputs): (Int?, Range<Int>)
        switch self {
        case .checkedByOp: return
        case .bool: (source, outputs) = (nil, 0..<ctx.outputCount)
        case .sameAs(let k), .retypedAs(let k): (source, outputs) = (k, 0..<ctx.outputCount)
        case .firstSameAs(let k): (source, outputs) = (k, 0..<min(1, ctx.outputCount))
        }
        let expected: DataType
        if let source {
            // A missing input is the op's own error to report.
            guard let input = ctx.optionalInput(source) else { return }
            expected = input.type
        } else {
            expected = .bool
        }
        for k in outputs where ctx.outputIndices[k] >= 0 {
            if case .retypedAs = self { ctx.executor.tensors[ctx.outputIndices[k]].type = expected }
            let declared = try ctx.output(k).type
            guard declared == expected else {
                let from = source.map { "the type of input \($0)" } ?? "bool"
                throw ctx.invalid("output \(k) is declared \(declared), but \(ctx.opName) writes \(expected) here (\(from))")
            }
        }
    }
}

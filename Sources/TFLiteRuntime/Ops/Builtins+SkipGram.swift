import Kernels

/// SKIP_GRAM: the skip-grams of the first string of its input (a sentence), joined by
/// spaces, as a vector of strings (see `SkipGram` in Kernels).
extension OpRegistry {
    mutating func registerSkipGramOps() {
        register(.skipGram, types: [.string], outputTypes: .checkedByOp, foldable: false, prepareSkipGram)
    }
}

private func prepareSkipGram(_ ctx: inout PrepareContext) throws(InterpreterError) -> NodeKernel {
    try ctx.expect(inputs: 1...1, outputs: 1...1)
    guard case .skipGramOptions(let o)? = ctx.options else { throw ctx.invalid("missing SkipGramOptions") }
    let x = try ctx.input(0), y = try ctx.output(0)
    guard x.type == .string, y.type == .string else {
        throw ctx.invalid("input and output must be strings, are \(x.type) and \(y.type)")
    }
    let xi = x.index, yi = y.index, node = ctx.nodeIndex
    let ngram = Int(o.ngramSize), skip = Int(o.maxSkipSize), all = o.includeAllNgrams
    let limit = ctx.executor.memoryLimit, control = ctx.executor.environment.control
    return { (c) throws(InterpreterError) in
        let sentences = try c.strings(xi)
        guard sentences.count >= 1 else {
            throw .invokeFailed(node: node, op: "SKIP_GRAM", reason: "the input holds no string")
        }
        let sentence = sentences[0]
        let words = SkipGram.words(sentence).map { UnsafeRawBufferPointer(rebasing: sentence[$0]) }
        var out = PackedStrings.Builder()
        // Skip-grams grow combinatorially with the options: a hostile model is stopped by
        // the memory limit and the invocation's time limit, not left to run.
        try SkipGram.enumerate(wordCount: words.count, ngramSize: ngram, maxSkipSize: skip,
                               includeAllNgrams: all) { (gram) throws(InterpreterError) in
            out.append(joining: gram.map { words[$0] }, separator: 0x20)
            if out.count % 4096 == 0 {
                guard out.packedByteCount <= limit else {
                    throw .memoryLimitExceeded(requested: out.packedByteCount, limit: limit)
                }
                try control.check()
            }
        }
        try c.setStrings(yi, shape: [out.count], out)
    }
}

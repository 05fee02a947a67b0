/// Skip-grams of a sentence, as TFLite's SKIP_GRAM makes them: every sequence of up to (or
/// exactly) `ngramSize` words in sentence order, where consecutive words are at most
/// `maxSkipSize` words apart.
public enum SkipGram {
    /// The byte ranges of `text`'s words. Words are split at ASCII whitespace exactly as
    /// TFLite does it, which never tests the first byte: a sentence starting with a space
    /// keeps that space in its first word.
    public static func words(_ text: UnsafeRawBufferPointer) -> [Range<Int>] {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }
        var words: [Range<Int>] = []
        var start = 0
        for i in text.indices.dropFirst() where isSpace(text[i]) {
            if i > start && !isSpace(text[start]) { words.append(start..<i) }
            start = i + 1
        }
        if text.count > start { words.append(start..<text.count) }
        return words
    }

    /// Calls `emit` with the word indices of each skip-gram of a sentence of `wordCount`
    /// words, in TFLite's order (depth first from the first word). Nothing is emitted when
    /// the sentence has fewer words than `ngramSize`, or `ngramSize` is below 1.
    public static func enumerate<E: Error>(wordCount: Int, ngramSize: Int, maxSkipSize: Int, includeAllNgrams: Bool,
                                           _ emit: (ArraySlice<Int>) throws(E) -> Void) throws(E) {
        guard ngramSize >= 1, wordCount >= ngramSize else { return }
        // stack[d] is the word at depth d; depth 0 starts on word 0 with depth 1 about to
        // advance from it.
        var stack = [Int](repeating: 0, count: ngramSize)
        var depth = 1
        while depth >= 0 {
            let canAdvance = depth < ngramSize && stack[depth] + 1 < wordCount
                && (depth == 0 || stack[depth] - stack[depth - 1] <= maxSkipSize)
            if canAdvance {
                stack[depth] += 1
                depth += 1
                if depth < ngramSize { stack[depth] = stack[depth - 1] }
            } else {
                if depth > 0 && (includeAllNgrams ? depth <= ngramSize : depth == ngramSize) {
                    try emit(stack[0..<depth])
                }
                depth -= 1
            }
        }
    }
}

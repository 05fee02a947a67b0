/// A canonical Huffman code of DEFLATE (RFC 1951 section 3.2.2), decoded through a
/// `fastBits`-bit lookup table with a bit-by-bit walk for the rare longer codes.
struct InflateHuffman {
    static let fastBits = 10
    static let maxBits = 15

    /// Indexed by the next `fastBits` stream bits: `symbol << 4 | length`, 0 when the
    /// code is longer than `fastBits` (or unused).
    private(set) var fast: [UInt16]
    /// Number of codes of each length 0...15.
    private(set) var counts: [Int]
    /// Symbols ordered by code value.
    private(set) var symbols: [UInt16]

    /// Builds the code from per-symbol code lengths (0 = unused). Over-subscribed length
    /// sets are rejected; incomplete ones are accepted (their unused codes fail on decode).
    init(lengths: [UInt8], what: String) throws(ImageError) {
        var counts = [Int](repeating: 0, count: Self.maxBits + 1)
        for l in lengths {
            guard Int(l) <= Self.maxBits else { throw .malformed(.png, "zlib: \(what) code length \(l) over 15") }
            counts[Int(l)] += 1
        }
        counts[0] = 0
        var left = 1
        for len in 1...Self.maxBits {
            left <<= 1
            left -= counts[len]
            guard left >= 0 else { throw .malformed(.png, "zlib: \(what) Huffman code is over-subscribed") }
        }
        var offsets = [Int](repeating: 0, count: Self.maxBits + 2)
        for len in 1...Self.maxBits { offsets[len + 1] = offsets[len] + counts[len] }
        var symbols = [UInt16](repeating: 0, count: offsets[Self.maxBits + 1])
        for (symbol, l) in lengths.enumerated() where l != 0 {
            symbols[offsets[Int(l)]] = UInt16(symbol)
            offsets[Int(l)] += 1
        }

        // Canonical codes are assigned in symbol order within each length; the stream sends
        // them most-significant bit first, so the table is indexed by the bit-reversed code.
        var fast = [UInt16](repeating: 0, count: 1 << Self.fastBits)
        var code = 0
        var index = 0
        for len in 1...Self.maxBits {
            for _ in 0..<counts[len] {
                if len <= Self.fastBits {
                    var reversed = 0
                    for b in 0..<len where code & (1 << b) != 0 { reversed |= 1 << (len - 1 - b) }
                    let entry = symbols[index] << 4 | UInt16(len)
                    var fill = reversed
                    while fill < (1 << Self.fastBits) {
                        fast[fill] = entry
                        fill += 1 << len
                    }
                }
                code += 1
                index += 1
            }
            code <<= 1
        }
        self.fast = fast
        self.counts = counts
        self.symbols = symbols
    }

    /// Decodes a code longer than the fast table from `bits` (stream order, least
    /// significant first); returns the symbol and code length, or nil for an unused code.
    func slowDecode(_ bits: UInt64) -> (symbol: Int, length: Int)? {
        var code = 0
        var first = 0
        var index = 0
        for len in 1...Self.maxBits {
            code |= Int((bits >> UInt64(len - 1)) & 1)
            let count = counts[len]
            if code - first < count { return (Int(symbols[index + code - first]), len) }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        return nil
    }
}

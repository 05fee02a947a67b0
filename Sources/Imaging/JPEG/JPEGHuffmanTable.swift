/// A JPEG Huffman table (ITU T.81 annex C) prepared for decoding: a 9-bit lookup table for
/// short codes and the canonical `maxCode`/`valueOffset` arrays (F.2.2.3) for longer ones.
/// A class so that the per-symbol decode borrows it instead of copying four arrays.
final class JPEGHuffmanTable {
    static let fastBits = 9

    /// Indexed by the next 9 bits: `symbol << 8 | length`, 0 for longer or unused codes.
    let fast: [UInt16]
    /// Largest code of each length 1...16 (-1 when there is none), index 0 unused.
    let maxCode: [Int]
    /// `values` index of the first code of each length minus that code.
    let valueOffset: [Int]
    /// The symbols in code order.
    let values: [UInt8]

    /// Builds a table from the 16 per-length counts and the symbols of a DHT segment.
    init(counts: [Int], values: [UInt8], at offset: Int) throws(ImageError) {
        self.values = values
        var fast = [UInt16](repeating: 0, count: 1 << Self.fastBits)
        var maxCode = [Int](repeating: -1, count: 18)
        var valueOffset = [Int](repeating: 0, count: 17)
        var code = 0
        var k = 0
        for len in 1...16 {
            let n = counts[len - 1]
            valueOffset[len] = k - code
            if n > 0 {
                code += n
                k += n
                maxCode[len] = code - 1
                guard code <= 1 << len else {
                    throw .malformed(.jpeg, "Huffman table at byte \(offset) has more codes of length \(len) than fit")
                }
                if len <= Self.fastBits {
                    for c in (code - n)..<code {
                        let entry = UInt16(values[k - code + c]) << 8 | UInt16(len)
                        let first = c << (Self.fastBits - len)
                        for i in first..<(first + (1 << (Self.fastBits - len))) { fast[i] = entry }
                    }
                }
            }
            code <<= 1
        }
        // A sentinel so the slow walk always stops at length 17.
        maxCode[17] = Int.max
        self.fast = fast
        self.maxCode = maxCode
        self.valueOffset = valueOffset
    }
}

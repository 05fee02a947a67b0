/// Reads the entropy-coded data of a JPEG scan most-significant bit first, removing the
/// 0xFF00 byte stuffing. At a marker or the end of the file it supplies zero bits, and
/// remembers whether real data ran out (a truncated file) so the decoder can report it.
struct JPEGBitReader {
    let data: UnsafeBufferPointer<UInt8>
    /// Next unread byte.
    private(set) var position: Int
    private var buffer: UInt64 = 0
    private var count = 0
    /// Zero bits supplied past the end of the segment, still in the buffer or consumed.
    private var padding = 0
    /// True once the file ended inside this segment (no marker terminates it).
    private(set) var hitEndOfFile = false

    init(data: UnsafeBufferPointer<UInt8>, position: Int) {
        self.data = data
        self.position = position
    }

    /// True when the decoder has used bits that are not in the file.
    var overran: Bool { padding > count }

    // Kept out of line so the per-symbol readers below stay small enough to inline.
    @inline(never)
    private mutating func refill() {
        while count <= 56 {
            var byte: UInt8 = 0
            if padding == 0 && position < data.count {
                byte = data[position]
                if byte == 0xFF {
                    let next = position + 1 < data.count ? data[position + 1] : 0
                    if next == 0x00 {
                        position += 2
                    } else if position + 1 < data.count {
                        // A marker ends the segment: leave it for the caller.
                        byte = 0
                        padding += 8
                    } else {
                        hitEndOfFile = true
                        position = data.count
                        byte = 0
                        padding += 8
                    }
                } else {
                    position += 1
                }
            } else {
                if position >= data.count { hitEndOfFile = true }
                padding += 8
            }
            buffer = buffer << 8 | UInt64(byte)
            count += 8
        }
    }

    /// Reads `n` (0...16) bits as an unsigned value.
    @inline(__always)
    mutating func bits(_ n: Int) -> Int {
        if n == 0 { return 0 }
        if count < n { refill() }
        count -= n
        return Int((buffer >> UInt64(count)) & ((1 << UInt64(n)) - 1))
    }

    /// Reads `n` bits and sign-extends them as in T.81 F.2.2.1 (EXTEND).
    @inline(__always)
    mutating func signed(_ n: Int) -> Int {
        let v = bits(n)
        // Branch-free EXTEND: subtract 2^n - 1 when the top bit of the n-bit value is clear.
        let negative = (v >> (n &- 1)) ^ 1
        return v &- ((0 &- negative) & ((1 << n) &- 1))
    }

    /// Decodes one Huffman symbol, or nil for a code the table does not define.
    @inline(__always)
    mutating func decode(_ table: JPEGHuffmanTable) -> Int? {
        if count < 16 { refill() }
        let peek = Int((buffer >> UInt64(count - 16)) & 0xFFFF)
        let entry = table.fast[peek >> (16 - JPEGHuffmanTable.fastBits)]
        if entry != 0 {
            count -= Int(entry & 0xFF)
            return Int(entry >> 8)
        }
        var len = JPEGHuffmanTable.fastBits + 1
        while len <= 16 {
            let code = peek >> (16 - len)
            if code <= table.maxCode[len] {
                count -= len
                let index = table.valueOffset[len] + code
                return index >= 0 && index < table.values.count ? Int(table.values[index]) : nil
            }
            len += 1
        }
        return nil
    }

    /// Drops buffered bits and moves to the start of the marker that ends the segment
    /// (skipping any stray bytes before it). Returns the marker code, or nil at end of file.
    mutating func nextMarker() -> UInt8? {
        // Whole unread bytes still buffered go back to the input, unless they were padding.
        let realBytes = max(0, (count - padding) / 8)
        position -= realBytes
        buffer = 0
        count = 0
        padding = 0
        // Unread bytes may include stuffed pairs; walking forward from here finds the marker.
        while position + 1 < data.count {
            if data[position] == 0xFF && data[position + 1] != 0 && data[position + 1] != 0xFF {
                return data[position + 1]
            }
            position += 1
        }
        position = data.count
        return nil
    }

    /// Consumes the two marker bytes at `position`.
    mutating func skipMarker() { position = min(data.count, position + 2) }
}

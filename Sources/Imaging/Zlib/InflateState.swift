/// The working state of one DEFLATE decompression: an LSB-first bit reader over the input
/// and a growable output window. Lives only inside `Inflate`'s buffer-pointer scope.
struct InflateState {
    private let input: UnsafeBufferPointer<UInt8>
    private var position: Int
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    private let maxOutput: Int
    private var output: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0

    /// The order in which code-length code lengths are sent (RFC 1951 3.2.7).
    private static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static let fixedLiterals: InflateHuffman = {
        var lengths = [UInt8](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        // A fixed, complete code: construction cannot fail.
        return try! InflateHuffman(lengths: lengths, what: "fixed literal")
    }()
    private static let fixedDistances: InflateHuffman = {
        try! InflateHuffman(lengths: [UInt8](repeating: 5, count: 30), what: "fixed distance")
    }()

    init(input: UnsafeBufferPointer<UInt8>, start: Int, maxOutput: Int) {
        self.input = input
        self.position = start
        self.maxOutput = max(0, maxOutput)
        // Start from a modest guess; growth is bounded by maxOutput.
        let guess = min(self.maxOutput, max(4096, min(input.count, Int.max / 8) * 4))
        self.capacity = max(1, guess)
        self.output = .allocate(capacity: self.capacity)
    }

    /// Frees the output buffer; call once when done.
    func release() { output.deallocate() }

    /// A copy of the decompressed bytes.
    func outputArray() -> [UInt8] { Array(UnsafeBufferPointer(start: output, count: count)) }

    /// Decodes blocks until the final one.
    mutating func run() throws(ImageError) {
        var final = false
        while !final {
            final = try bits(1) == 1
            let type = try bits(2)
            switch type {
            case 0: try storedBlock()
            case 1: try huffmanBlock(Self.fixedLiterals, Self.fixedDistances)
            case 2:
                let (lit, dist) = try dynamicTables()
                try huffmanBlock(lit, dist)
            default:
                throw .malformed(.png, "zlib: reserved block type 3 at byte \(byteOffset)")
            }
        }
    }

    /// Reads the big-endian Adler-32 that follows the last block, after byte alignment.
    mutating func readTrailer() throws(ImageError) -> UInt32 {
        dropToByteBoundary()
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let b = try? bits(8) else { throw .truncated(.png, "zlib stream ends before its Adler-32 trailer") }
            value = value << 8 | UInt32(b)
        }
        return value
    }

    // MARK: Bits

    private var byteOffset: Int { position - bitCount / 8 }

    /// Tops the bit buffer up to at least 56 bits (fewer only at the end of the input).
    @inline(__always)
    private mutating func refill() {
        if input.count - position >= 8 {
            // One unaligned little-endian load; only the whole bytes that fit are counted.
            let word = UInt64(littleEndian: UnsafeRawPointer(input.baseAddress! + position).loadUnaligned(as: UInt64.self))
            bitBuffer |= word << UInt64(bitCount)
            let bytes = (63 - bitCount) >> 3
            position += bytes
            bitCount += bytes << 3
        } else {
            refillNearEnd()
        }
    }

    // Out of line: rare, and keeps the inlined fast path small.
    @inline(never)
    private mutating func refillNearEnd() {
        while bitCount <= 56 && position < input.count {
            bitBuffer |= UInt64(input[position]) << UInt64(bitCount)
            position += 1
            bitCount += 8
        }
    }

    @inline(__always)
    private mutating func bits(_ n: Int) throws(ImageError) -> Int {
        if bitCount < n {
            refill()
            guard bitCount >= n else { throw .truncated(.png, "zlib stream ends at byte \(input.count) inside a block") }
        }
        let v = Int(bitBuffer & ((1 << UInt64(n)) - 1))
        bitBuffer >>= UInt64(n)
        bitCount -= n
        return v
    }

    private mutating func dropToByteBoundary() {
        let drop = bitCount % 8
        bitBuffer >>= UInt64(drop)
        bitCount -= drop
    }

    @inline(__always)
    private mutating func decode(_ table: InflateHuffman) throws(ImageError) -> Int {
        if bitCount < InflateHuffman.maxBits { refill() }
        let entry = table.fast[Int(bitBuffer & UInt64((1 << InflateHuffman.fastBits) - 1))]
        let symbol: Int, length: Int
        if entry != 0 {
            symbol = Int(entry >> 4)
            length = Int(entry & 15)
        } else if let slow = table.slowDecode(bitBuffer) {
            (symbol, length) = slow
        } else {
            throw .malformed(.png, "zlib: invalid Huffman code at byte \(byteOffset)")
        }
        guard length <= bitCount else { throw .truncated(.png, "zlib stream ends at byte \(input.count) inside a Huffman code") }
        bitBuffer >>= UInt64(length)
        bitCount -= length
        return symbol
    }

    // MARK: Blocks

    private mutating func storedBlock() throws(ImageError) {
        dropToByteBoundary()
        let len = try bits(16)
        let nlen = try bits(16)
        guard len == ~nlen & 0xFFFF else { throw .malformed(.png, "zlib: stored block length check fails at byte \(byteOffset)") }
        // Whole bytes still in the bit buffer are re-read from the input directly.
        position -= bitCount / 8
        bitBuffer = 0
        bitCount = 0
        guard len <= input.count - position else { throw .truncated(.png, "zlib stored block of \(len) bytes runs past the end of the data") }
        try reserve(len)
        (output + count).update(from: input.baseAddress! + position, count: len)
        count += len
        position += len
    }

    private mutating func dynamicTables() throws(ImageError) -> (InflateHuffman, InflateHuffman) {
        let literalCount = try bits(5) + 257
        let distanceCount = try bits(5) + 1
        let codeLengthCount = try bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else {
            throw .malformed(.png, "zlib: dynamic block declares \(literalCount) literal and \(distanceCount) distance codes")
        }
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengthLengths[Self.codeLengthOrder[i]] = UInt8(try bits(3)) }
        let codeLengths = try InflateHuffman(lengths: codeLengthLengths, what: "code-length")

        var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
        var i = 0
        while i < lengths.count {
            let symbol = try decode(codeLengths)
            if symbol < 16 {
                lengths[i] = UInt8(symbol)
                i += 1
                continue
            }
            var value: UInt8 = 0
            let repeatCount: Int
            switch symbol {
            case 16:
                guard i > 0 else { throw .malformed(.png, "zlib: length repeat with no previous length at byte \(byteOffset)") }
                value = lengths[i - 1]
                repeatCount = 3 + (try bits(2))
            case 17: repeatCount = 3 + (try bits(3))
            default: repeatCount = 11 + (try bits(7))
            }
            guard repeatCount <= lengths.count - i else { throw .malformed(.png, "zlib: code lengths overrun the table at byte \(byteOffset)") }
            for _ in 0..<repeatCount {
                lengths[i] = value
                i += 1
            }
        }
        guard lengths[256] != 0 else { throw .malformed(.png, "zlib: dynamic block has no end-of-block code") }
        let literals = try InflateHuffman(lengths: Array(lengths[0..<literalCount]), what: "literal/length")
        let distances = try InflateHuffman(lengths: Array(lengths[literalCount...]), what: "distance")
        return (literals, distances)
    }

    private mutating func huffmanBlock(_ literals: InflateHuffman, _ distances: InflateHuffman) throws(ImageError) {
        while true {
            let symbol = try decode(literals)
            if symbol < 256 {
                try reserve(1)
                output[count] = UInt8(symbol)
                count += 1
                continue
            }
            if symbol == 256 { return }
            let li = symbol - 257
            guard li < 29 else { throw .malformed(.png, "zlib: invalid length symbol \(symbol) at byte \(byteOffset)") }
            let length = DeflateCodes.lengthBase[li] + (try bits(DeflateCodes.lengthExtra[li]))
            let di = try decode(distances)
            guard di < 30 else { throw .malformed(.png, "zlib: invalid distance symbol \(di) at byte \(byteOffset)") }
            let distance = DeflateCodes.distanceBase[di] + (try bits(DeflateCodes.distanceExtra[di]))
            guard distance <= count else {
                throw .malformed(.png, "zlib: back-reference distance \(distance) reaches before the start of the output at byte \(byteOffset)")
            }
            try reserve(length)
            if distance >= length {
                (output + count).update(from: output + count - distance, count: length)
                count += length
            } else {
                // Overlapping copy (a repeating pattern): byte by byte, in order.
                var from = count - distance
                for _ in 0..<length {
                    output[count] = output[from]
                    count += 1
                    from += 1
                }
            }
        }
    }

    /// Ensures room for `n` more bytes, growing the buffer up to `maxOutput`.
    @inline(__always)
    private mutating func reserve(_ n: Int) throws(ImageError) {
        if n <= capacity - count { return }
        guard n <= maxOutput - count else {
            throw .limitExceeded("zlib stream inflates to more than the expected \(maxOutput) bytes")
        }
        var newCapacity = capacity
        while newCapacity - count < n { newCapacity = min(maxOutput, newCapacity * 2) }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: output, count: count)
        output.deallocate()
        output = grown
        capacity = newCapacity
    }
}

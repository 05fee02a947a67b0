/// zlib compression (RFC 1950/1951) for the PNG encoder: greedy LZ77 matching over a
/// 32 KiB window with hash chains, coded as one fixed-Huffman block. Simple and
/// deterministic; good enough for masks and annotated images.
public enum Deflate {
    private static let minMatch = 3
    private static let maxMatch = 258
    private static let window = 32_768
    private static let hashBits = 15
    private static let maxChain = 64

    /// Index into `DeflateCodes.lengthBase` for every match length 0...258 (entries below 3 unused).
    private static let lengthCode: [UInt8] = {
        var t = [UInt8](repeating: 0, count: maxMatch + 1)
        var code = 0
        for l in minMatch...maxMatch {
            while code + 1 < DeflateCodes.lengthBase.count && DeflateCodes.lengthBase[code + 1] <= l { code += 1 }
            t[l] = UInt8(code)
        }
        return t
    }()

    /// Compresses `data` into a zlib stream.
    public static func zlib(_ data: [UInt8]) -> [UInt8] {
        var writer = BitWriter()
        writer.bytes = [0x78, 0x01]
        writer.write(1, bits: 1)  // final block
        writer.write(1, bits: 2)  // fixed Huffman codes
        data.withUnsafeBufferPointer { input in
            var head = [Int32](repeating: -1, count: 1 << hashBits)
            var previous = [Int32](repeating: -1, count: window)
            let n = input.count
            @inline(__always) func hash(_ i: Int) -> Int {
                let v = Int(input[i]) << 16 | Int(input[i + 1]) << 8 | Int(input[i + 2])
                return (v &* 2_654_435_761) >> (32 - hashBits) & ((1 << hashBits) - 1)
            }
            @inline(__always) func insert(_ i: Int) {
                guard i + minMatch <= n else { return }
                let h = hash(i)
                previous[i & (window - 1)] = head[h]
                head[h] = Int32(i)
            }
            var i = 0
            while i < n {
                var bestLength = 0, bestDistance = 0
                if i + minMatch <= n {
                    var candidate = Int(head[hash(i)])
                    var chain = maxChain
                    let limit = min(maxMatch, n - i)
                    while candidate >= 0 && i - candidate <= window && chain > 0 {
                        var l = 0
                        while l < limit && input[candidate + l] == input[i + l] { l += 1 }
                        if l > bestLength {
                            bestLength = l
                            bestDistance = i - candidate
                            if l == limit { break }
                        }
                        let next = Int(previous[candidate & (window - 1)])
                        // Chains only go backwards; a stale slot from an older window ends the walk.
                        if next >= candidate { break }
                        candidate = next
                        chain -= 1
                    }
                }
                if bestLength >= minMatch {
                    writer.writeLength(bestLength, code: Int(lengthCode[bestLength]))
                    writer.writeDistance(bestDistance)
                    for k in 0..<bestLength { insert(i + k) }
                    i += bestLength
                } else {
                    writer.writeLiteral(Int(input[i]))
                    insert(i)
                    i += 1
                }
            }
        }
        writer.writeLiteral(256)
        writer.flush()
        var adler = Adler32()
        adler.update(data)
        let a = adler.value
        writer.bytes += [UInt8(a >> 24), UInt8(a >> 16 & 0xFF), UInt8(a >> 8 & 0xFF), UInt8(a & 0xFF)]
        return writer.bytes
    }

    /// LSB-first bit packing; Huffman codes are reversed so they read MSB-first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var buffer: UInt64 = 0
        private var count = 0

        mutating func write(_ value: Int, bits: Int) {
            buffer |= UInt64(value) << UInt64(count)
            count += bits
            while count >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                count -= 8
            }
        }

        mutating func writeCode(_ code: Int, length: Int) {
            var reversed = 0
            for b in 0..<length where code & (1 << b) != 0 { reversed |= 1 << (length - 1 - b) }
            write(reversed, bits: length)
        }

        /// A literal/length symbol 0...287 in the fixed code (RFC 1951 3.2.6).
        mutating func writeLiteral(_ symbol: Int) {
            switch symbol {
            case 0...143: writeCode(0x30 + symbol, length: 8)
            case 144...255: writeCode(0x190 + symbol - 144, length: 9)
            case 256...279: writeCode(symbol - 256, length: 7)
            default: writeCode(0xC0 + symbol - 280, length: 8)
            }
        }

        mutating func writeLength(_ length: Int, code: Int) {
            writeLiteral(257 + code)
            write(length - DeflateCodes.lengthBase[code], bits: DeflateCodes.lengthExtra[code])
        }

        mutating func writeDistance(_ distance: Int) {
            var code = DeflateCodes.distanceBase.count - 1
            while DeflateCodes.distanceBase[code] > distance { code -= 1 }
            writeCode(code, length: 5)
            write(distance - DeflateCodes.distanceBase[code], bits: DeflateCodes.distanceExtra[code])
        }

        mutating func flush() {
            if count > 0 { bytes.append(UInt8(buffer & 0xFF)) }
            buffer = 0
            count = 0
        }
    }
}

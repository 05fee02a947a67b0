/// zlib (RFC 1950) and raw DEFLATE (RFC 1951) decompression: stored, fixed-Huffman and
/// dynamic-Huffman blocks, with the zlib header and Adler-32 trailer checked.
public enum Inflate {
    /// Decompresses a zlib stream, refusing to produce more than `maxOutput` bytes.
    /// Errors name the compressed byte offset where decoding failed.
    public static func zlib(_ data: [UInt8], maxOutput: Int) throws(ImageError) -> [UInt8] {
        guard data.count >= 2 else { throw .truncated(.png, "zlib stream shorter than its 2-byte header") }
        let cmf = Int(data[0]), flg = Int(data[1])
        guard cmf & 0x0F == 8 else { throw .malformed(.png, "zlib: compression method \(cmf & 0x0F), expected 8 (deflate)") }
        guard cmf >> 4 <= 7 else { throw .malformed(.png, "zlib: window size exponent \(cmf >> 4) over 7") }
        guard (cmf << 8 | flg) % 31 == 0 else { throw .malformed(.png, "zlib: header check bits are wrong") }
        guard flg & 0x20 == 0 else { throw .unsupported(.png, "zlib: preset dictionary") }
        let result: Result<[UInt8], ImageError> = data.withUnsafeBufferPointer { input in
            var state = InflateState(input: input, start: 2, maxOutput: maxOutput)
            defer { state.release() }
            do throws(ImageError) {
                try state.run()
                let expected = try state.readTrailer()
                let output = state.outputArray()
                var adler = Adler32()
                adler.update(output)
                guard adler.value == expected else {
                    throw .checksumMismatch(.png, "zlib Adler-32 is \(hex(adler.value)), stream says \(hex(expected))")
                }
                return .success(output)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decompresses raw DEFLATE data (no zlib header or trailer).
    public static func raw(_ data: [UInt8], maxOutput: Int) throws(ImageError) -> [UInt8] {
        let result: Result<[UInt8], ImageError> = data.withUnsafeBufferPointer { input in
            var state = InflateState(input: input, start: 0, maxOutput: maxOutput)
            defer { state.release() }
            do throws(ImageError) {
                try state.run()
                return .success(state.outputArray())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - s.count)) + s
    }
}

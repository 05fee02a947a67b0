import TestSupport
import Imaging
import Testing

/// zlib inflate/deflate and the two checksums, against plain reference formulas.
@Suite struct ZlibTests {
    /// Bit-at-a-time CRC-32 straight from the polynomial definition.
    static func referenceCRC(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Adler-32 from its definition, with no deferred reduction.
    static func referenceAdler(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for x in bytes {
            a = (a + UInt32(x)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    }

    @Test(arguments: [0, 1, 100, 5552, 5553, 70_000])
    func checksumsMatchDefinitions(_ count: Int) {
        let bytes = Self.randomBytes(count, seed: UInt64(count) + 1)
        #expect(CRC32.checksum(bytes) == Self.referenceCRC(bytes))
        var adler = Adler32()
        adler.update(bytes)
        #expect(adler.value == Self.referenceAdler(bytes))
    }

    @Test func crcIsIncremental() {
        let bytes = Self.randomBytes(1000, seed: 7)
        var crc = CRC32()
        crc.update(bytes[0..<300])
        crc.update(bytes[300...])
        #expect(crc.value == Self.referenceCRC(bytes))
    }

    /// Inputs exercising literals, short and long matches and overlapping copies.
    static let samples: [(String, [UInt8])] = [
        ("empty", []),
        ("one byte", [42]),
        ("random", randomBytes(50_000, seed: 3)),
        ("run of zeros", [UInt8](repeating: 0, count: 100_000)),
        ("repeated text", Array(String(repeating: "the quick brown fox jumps over the lazy dog. ", count: 500).utf8)),
        ("ramp", (0..<70_000).map { UInt8(truncatingIfNeeded: $0 / 7) }),
    ]

    @Test(arguments: 0..<samples.count)
    func deflateThenInflateRoundTrips(_ index: Int) throws {
        let (_, data) = Self.samples[index]
        let compressed = Deflate.zlib(data)
        #expect(try Inflate.zlib(compressed, maxOutput: data.count) == data)
    }

    @Test func compressesRedundantData() {
        let data = [UInt8](repeating: 7, count: 100_000)
        #expect(Deflate.zlib(data).count < 1000)
    }

    /// A zlib stream of stored blocks built by hand from RFC 1950/1951.
    static func storedStream(_ chunks: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        for (i, chunk) in chunks.enumerated() {
            out.append(i == chunks.count - 1 ? 1 : 0)  // BFINAL, BTYPE=00, then byte-aligned
            let n = UInt16(chunk.count)
            out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)]
            out += chunk
        }
        let a = referenceAdler(chunks.flatMap { $0 })
        out += [UInt8(a >> 24), UInt8(a >> 16 & 0xFF), UInt8(a >> 8 & 0xFF), UInt8(a & 0xFF)]
        return out
    }

    @Test func inflatesStoredBlocks() throws {
        let chunks = [Self.randomBytes(1000, seed: 11), [], Self.randomBytes(65_535, seed: 12)]
        #expect(try Inflate.zlib(Self.storedStream(chunks), maxOutput: 1 << 20) == chunks.flatMap { $0 })
    }

    @Test func rejectsBadStreams() {
        let good = Self.storedStream([[1, 2, 3, 4]])
        var badAdler = good
        badAdler[badAdler.count - 1] ^= 1
        #expect(throws: ImageError.self) { try Inflate.zlib(badAdler, maxOutput: 100) }
        var badHeader = good
        badHeader[1] ^= 1
        #expect(throws: ImageError.self) { try Inflate.zlib(badHeader, maxOutput: 100) }
        var badLength = good
        badLength[5] ^= 0xFF
        #expect(throws: ImageError.self) { try Inflate.zlib(badLength, maxOutput: 100) }
        #expect(throws: ImageError.self) { try Inflate.zlib(Array(good.dropLast(6)), maxOutput: 100) }
        // Reserved block type 3.
        #expect(throws: ImageError.self) { try Inflate.zlib([0x78, 0x01, 0x07, 0, 0, 0, 0], maxOutput: 100) }
    }

    @Test func outputLimitIsEnforced() {
        let compressed = Deflate.zlib([UInt8](repeating: 0, count: 10_000))
        #expect(throws: ImageError.self) { try Inflate.zlib(compressed, maxOutput: 9_999) }
    }

    @Test func truncatedStreamsThrowAtEveryLength() {
        let compressed = Deflate.zlib(Self.randomBytes(3000, seed: 5))
        for n in 0..<compressed.count {
            #expect(throws: ImageError.self) { try Inflate.zlib(Array(compressed[0..<n]), maxOutput: 10_000) }
        }
    }
}


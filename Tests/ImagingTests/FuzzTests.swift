import Foundation
import Imaging
import Testing
import TestSupport

/// Mutation fuzzing of the decoders: corpus files and freshly encoded PNGs are damaged in
/// random ways (fixed seed) and decoded; every outcome must be an image or an `ImageError`.
/// A crash, trap or hang fails the run. `IMAGING_FUZZ_ITERATIONS` sets the mutations per
/// format (default 300); `Scripts/fuzz_images.sh` runs 100,000 per format in release mode.
@Suite struct FuzzTests {
    static var iterations: Int {
        ProcessInfo.processInfo.environment["IMAGING_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 300
    }

    /// Small enough that no mutated header can make a run slow or memory-hungry.
    static let limits = DecodeLimits(maxDimension: 4096, maxPixels: 1 << 20, maxBytes: 1 << 24)

    static func seeds(_ format: ImageFormat) throws -> [[UInt8]] {
        var files = try ImageCorpusEntry.all.filter { entry in
            switch format {
            case .png: return entry.format == "PNG"
            case .jpeg: return entry.format == "JPEG"
            case .pnm: return ["PPM", "PGM", "PBM"].contains(entry.format)
            }
        }.map { try $0.bytes() }
        if format == .png {
            // Interlaced and palette files from our own encoder add structure to mutate.
            let image = try ImageDecoder.decode(bytes: files[0]).image.resized(width: 19, height: 11)
            files.append(try PNGEncoder.encode(image, interlaced: true))
            files.append(try PNGEncoder.encode(image.converted(to: .rgb).resized(width: 5, height: 4, method: .nearest), mode: .palette))
        }
        return files
    }

    /// Applies one to four random edits.
    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + Int(rng.next() % 4)) {
            guard !bytes.isEmpty else { break }
            let at = Int(rng.next() % UInt64(bytes.count))
            switch rng.next() % 7 {
            case 0: bytes[at] ^= UInt8(1 << (rng.next() % 8))
            case 1: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
            case 2: bytes[at] = [0x00, 0xFF, 0x7F, 0x80, 0x01, 0xFE][Int(rng.next() % 6)]
            case 3: bytes.removeSubrange(at...)
            case 4:
                let n = min(bytes.count - at, 1 + Int(rng.next() % 64))
                bytes.removeSubrange(at..<(at + n))
            case 5:
                let n = 1 + Int(rng.next() % 64)
                bytes.insert(contentsOf: (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, at: at)
            default:
                // Copy a run from elsewhere in the file (keeps plausible structure).
                let from = Int(rng.next() % UInt64(bytes.count))
                let n = min(bytes.count - max(at, from), 1 + Int(rng.next() % 32))
                for i in 0..<n { bytes[at + i] = bytes[from + i] }
            }
        }
        return bytes
    }

    /// Rewrites every PNG chunk CRC, so mutations reach the code behind the CRC check.
    static func fixPNGChecksums(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length <= bytes.count - offset - 12 else { break }
            let crc = CRC32.checksum(bytes[(offset + 4)..<(offset + 8 + length)])
            let at = offset + 8 + length
            bytes[at] = UInt8(crc >> 24); bytes[at + 1] = UInt8(crc >> 16 & 0xFF)
            bytes[at + 2] = UInt8(crc >> 8 & 0xFF); bytes[at + 3] = UInt8(crc & 0xFF)
            offset = at + 4
        }
        return bytes
    }

    /// Splits a PNG into (type, data) chunks, or nil if it is not well formed.
    static func chunks(_ png: [UInt8]) -> [(String, [UInt8])]? {
        var out: [(String, [UInt8])] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            guard length <= png.count - offset - 12 else { return nil }
            out.append((String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self), Array(png[(offset + 8)..<(offset + 8 + length)])))
            offset += 12 + length
        }
        return out
    }

    /// Mutates the decompressed scanlines (and sometimes IHDR) of a valid PNG, then
    /// recompresses and re-checksums it, so filters and pixel expansion see damaged data.
    static func mutateInsidePNG(_ png: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        guard let parts = chunks(png) else { return png }
        let compressed = parts.filter { $0.0 == "IDAT" }.flatMap { $0.1 }
        guard let raw = try? Inflate.zlib(compressed, maxOutput: 1 << 24) else { return png }
        let damaged = mutate(raw, &rng)
        var out = PNGDecoder.signatureBytes
        var wroteData = false
        for (type, data) in parts {
            var body = data
            if type == "IHDR" && rng.next() % 3 == 0 { body = mutate(body, &rng) }
            if type == "IDAT" {
                if wroteData { continue }
                body = Deflate.zlib(damaged)
                wroteData = true
            }
            let n = UInt32(body.count)
            out += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
            out += Array(type.utf8) + body + [0, 0, 0, 0]
        }
        return fixPNGChecksums(out)
    }

    @Test(arguments: ImageFormat.allCases)
    func mutatedFilesNeverCrash(_ format: ImageFormat) throws {
        let seeds = try Self.seeds(format)
        #expect(!seeds.isEmpty)
        var rng = SplitMix64(seed: 0x1A6E_5EED &+ UInt64(format.rawValue.count))
        var decoded = 0, rejected = 0
        for _ in 0..<Self.iterations {
            let seed = seeds[Int(rng.next() % UInt64(seeds.count))]
            var bytes: [UInt8]
            if format == .png && rng.next() % 3 == 0 {
                bytes = Self.mutateInsidePNG(seed, &rng)
            } else {
                bytes = Self.mutate(seed, &rng)
                if format == .png && rng.next() % 4 != 0 { bytes = Self.fixPNGChecksums(bytes) }
            }
            do {
                let result = try ImageDecoder.decode(bytes: bytes, limits: Self.limits)
                let image = result.image
                #expect(image.samples.count == image.width * image.height * image.channels)
                decoded += 1
            } catch {
                #expect(!error.description.isEmpty)
                rejected += 1
            }
        }
        #expect(decoded + rejected == Self.iterations)
        print("fuzz \(format.rawValue): \(Self.iterations) mutated files, \(decoded) decoded, \(rejected) rejected with ImageError")
    }

    @Test func randomBytesNeverCrash() {
        var rng = SplitMix64(seed: 99)
        for i in 0..<Self.iterations {
            var bytes = (0..<Int(rng.next() % 200)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            // Give a third of them a valid signature so the format parsers see them.
            let prefixes: [[UInt8]] = [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], [0xFF, 0xD8, 0xFF], Array("P6 ".utf8)]
            if i % 2 == 0 { bytes = prefixes[i % 3] + bytes }
            _ = try? ImageDecoder.decode(bytes: bytes, limits: Self.limits)
        }
    }
}

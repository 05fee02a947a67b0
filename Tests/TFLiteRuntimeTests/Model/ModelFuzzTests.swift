import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// Mutated, truncated and spliced variants of the corpus models: each either loads (and
/// then every buffer and constant it hands out is readable) or throws; the process never
/// crashes. A fixed seed keeps runs reproducible. Raise the count with
/// `TFLITE_FUZZ_ITERATIONS=100000 swift test -c release --filter ModelFuzzTests`
/// (see `Scripts/fuzz_models.sh`).
@Suite struct ModelFuzzTests {
    static let defaultIterations = 3_000

    static var iterations: Int { FuzzSettings.iterations(default: defaultIterations) }
    static var seed: UInt64 { FuzzSettings.seed(default: 0x7F1_17E) }

    /// The corpus models up to 700 KB (all but the largest few, which only slow the run).
    static func seedModels() throws -> [[UInt8]] {
        let directory = Fixtures.corpusFile("models").path
        return try FileManager.default.contentsOfDirectory(atPath: directory).sorted().compactMap { name in
            let bytes = try Fixtures.corpusBytes("models/" + name)
            return bytes.count <= 700_000 ? bytes : nil
        }
    }

    @Test func mutatedModelsLoadOrThrow() throws {
        let seeds = try Self.seedModels()
        #expect(seeds.count > 90)
        var rng = SplitMix64(seed: Self.seed)
        var loaded = 0
        var thrown = 0
        for _ in 0..<Self.iterations {
            let variant = Self.mutate(seeds, &rng)
            do {
                let model = try Model(bytes: variant)
                Self.touchEverything(model)
                loaded += 1
            } catch {
                thrown += 1
            }
        }
        print("ModelFuzzTests: \(loaded + thrown) variants (seed \(Self.seed)): \(loaded) loaded, \(thrown) threw")
        #expect(loaded + thrown == Self.iterations)
        #expect(thrown > Self.iterations / 10, "mutations reach the checks")
        #expect(loaded > 0, "some mutations keep the model valid")
    }

    /// Values that sit on the edges of what offsets, lengths and counts may hold.
    static let interestingWords: [UInt32] = [0, 1, 2, 3, 4, 7, 8, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x1_0000,
                                             0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF]

    static func mutate(_ seeds: [[UInt8]], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = seeds[Int(rng.next() % UInt64(seeds.count))]
        func position(_ count: Int) -> Int { Int(rng.next() % UInt64(max(count, 1))) }
        switch rng.next() % 6 {
        case 0:  // a few random bytes
            for _ in 0...(rng.next() % 8) { bytes[position(bytes.count)] = UInt8(truncatingIfNeeded: rng.next()) }
        case 1:  // an aligned word set to an edge value, as offsets and lengths are words
            let at = position(bytes.count / 4) * 4
            let word = interestingWords[Int(rng.next() % UInt64(interestingWords.count))]
            withUnsafeBytes(of: word.littleEndian) { raw in
                for i in 0..<4 where at + i < bytes.count { bytes[at + i] = raw[i] }
            }
        case 2:  // truncated
            bytes.removeLast(bytes.count - position(bytes.count))
        case 3:  // the head of one model spliced onto the tail of another
            let other = seeds[Int(rng.next() % UInt64(seeds.count))]
            let cut = position(bytes.count)
            let tail = position(other.count)
            bytes = Array(bytes[..<cut]) + Array(other[tail...])
        case 4:  // a chunk deleted or duplicated inside the model
            let start = position(bytes.count)
            let length = min(Int(rng.next() % 64) + 1, bytes.count - start)
            if rng.next() % 2 == 0 {
                bytes.removeSubrange(start..<(start + length))
            } else {
                bytes.insert(contentsOf: bytes[start..<(start + length)], at: start)
            }
        default:  // a 16-bit vtable-sized value bumped
            let at = position(bytes.count / 2) * 2
            if at + 1 < bytes.count {
                let value = (UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8) &+ UInt16(truncatingIfNeeded: rng.next() % 9) &- 4
                bytes[at] = UInt8(truncatingIfNeeded: value)
                bytes[at + 1] = UInt8(truncatingIfNeeded: value >> 8)
            }
        }
        return bytes
    }

    /// Reads what the runtime would read from a loaded model: every operator kind, every
    /// buffer's first and last byte, every constant, every metadata buffer.
    static func touchEverything(_ model: Model) {
        var sum = 0
        _ = model.operatorHistogram()
        for b in model.schema.buffers.indices {
            let data = model.bufferData(b)
            if let first = data.first, let last = data.last { sum &+= Int(first) &+ Int(last) }
        }
        for (s, subgraph) in model.schema.subgraphs.enumerated() {
            for t in subgraph.tensors.indices {
                if let data = model.constantData(subgraph: s, tensor: t), let last = data.last { sum &+= Int(last) }
            }
            for o in subgraph.operators.indices {
                if let options = model.customOptions(subgraph: s, operator: o), let last = options.last { sum &+= Int(last) }
            }
        }
        for entry in model.schema.metadata {
            if let name = entry.name, let data = model.metadataBuffer(named: name) { sum &+= data.count }
        }
        withExtendedLifetime(sum) {}
    }
}


import Foundation
import Testing
import TestSupport
import FlatBuffers

/// FlexBuffer values assembled by hand following the format (packed type byte = type << 2 |
/// log2(width); the root's packed type and width are the buffer's last two bytes), a real
/// custom-options map, and malformed buffers.
@Suite struct FlexBufferTests {
    static func packed(_ type: FlexBuffer.ValueType, width: Int) -> UInt8 {
        type.rawValue << 2 | UInt8(width.trailingZeroBitCount)
    }

    @Test func scalarRoots() throws {
        #expect(try FlexBuffer.root(of: [7, Self.packed(.int, width: 1), 1]).asInt == 7)
        #expect(try FlexBuffer.root(of: [0xFE, 0xFF, Self.packed(.int, width: 2), 2]).asInt == -2)
        #expect(try FlexBuffer.root(of: [0xFE, 0xFF, Self.packed(.uint, width: 2), 2]).asUInt == 0xFFFE)
        let half: [UInt8] = withUnsafeBytes(of: Float(1.5).bitPattern.littleEndian) { Array($0) }
        #expect(try FlexBuffer.root(of: half + [Self.packed(.float, width: 4), 4]).asDouble == 1.5)
        #expect(try FlexBuffer.root(of: [1, Self.packed(.bool, width: 1), 1]).asBool)
        #expect(try FlexBuffer.root(of: [0, Self.packed(.null, width: 1), 1]).isNull)
    }

    @Test func stringRoot() throws {
        // length 2, "hi", zero, then the root: an offset of 3 back to the characters.
        let root = try FlexBuffer.root(of: [2, 104, 105, 0, 3, Self.packed(.string, width: 1), 1])
        #expect(root.type == .string)
        #expect(try root.asString == "hi")
        #expect(try root.asBytes == [104, 105])
    }

    @Test func typedVector() throws {
        let root = try FlexBuffer.root(of: [3, 1, 2, 3, 3, Self.packed(.vectorInt, width: 1), 1])
        let vector = try root.vector
        #expect(vector.count == 3)
        #expect(try (0..<3).map { try vector[$0].asInt } == [1, 2, 3])
        #expect(throws: FlatBufferError.self) { try vector[3] }
    }

    /// {"a": 1, "b": true}: keys "a" at 0 and "b" at 2; the key vector (length at 4,
    /// offsets at 5 and 6); the map prefix (keys offset at 7, key width at 8, length at 9);
    /// values at 10 and 11; their packed types at 12 and 13; the root offset at 14.
    static let smallMap: [UInt8] = [97, 0, 98, 0, 2, 5, 4, 2, 1, 2, 1, 1,
                                    packed(.int, width: 1), packed(.bool, width: 1),
                                    4, packed(.map, width: 1), 1]

    @Test func mapLookup() throws {
        let map = try FlexBuffer.root(of: Self.smallMap).map
        #expect(map.count == 2)
        #expect(try map.keyStrings == ["a", "b"])
        #expect(try map["a"]?.asInt == 1)
        #expect(try map["b"]?.asBool == true)
        #expect(try map["c"] == nil)
    }

    @Test func typeMismatchThrows() throws {
        let map = try FlexBuffer.root(of: Self.smallMap)
        #expect(throws: FlatBufferError.self) { try map.asInt }
        #expect(throws: FlatBufferError.self) { try map.asString }
        let number = try FlexBuffer.root(of: [7, Self.packed(.int, width: 1), 1])
        let error = #expect(throws: FlatBufferError.self) { try number.map }
        #expect(error?.kind == .typeMismatch)
        #expect(throws: FlatBufferError.self) { try number.vector }
        #expect(throws: FlatBufferError.self) { try number.asString }
    }

    @Test func malformedBuffersThrow() {
        let cases: [(String, [UInt8])] = [
            ("empty", []),
            ("root width 3", [0, 0, 0, Self.packed(.int, width: 1), 3]),
            ("root width past the start", [Self.packed(.int, width: 8), 8]),
            ("unknown type", [0, 30 << 2, 1]),
            ("string offset before the start", [9, Self.packed(.string, width: 1), 1]),
            ("string longer than the buffer", [200, 104, 105, 0, 3, Self.packed(.string, width: 1), 1]),
            ("vector longer than the buffer", [250, 1, 2, 3, 3, Self.packed(.vectorInt, width: 1), 1]),
        ]
        for (name, bytes) in cases {
            #expect(throws: FlatBufferError.self, "\(name)") {
                let root = try FlexBuffer.root(of: bytes)
                switch root.type {
                case .string: _ = try root.asString
                case .vectorInt: _ = try root.vector
                default: _ = try root.asInt
                }
            }
        }
    }

    /// The custom options of the detector's `TFLite_Detection_PostProcess` operator, found
    /// through the FlatBuffer reader (Model.subgraphs[0].operators[i].custom_options, field 5 after the union's two).
    static func detectionOptions() throws -> [UInt8] {
        let model = try Fixtures.corpusBytes("models/ssd_detector_float.tflite")
        return try withBuffer(model) { buffer in
            let subgraph = try #require(try buffer.root().tables(2, "subgraphs").first)
            for op in try subgraph.tables(3, "operators") {
                if let range = try op.byteVector(5, "custom_options") { return Array(buffer.bytes[range]) }
            }
            throw FlatBufferError(.invalidValue, at: 0, "no custom options in the detector model")
        }
    }

    @Test func readsDetectionPostProcessOptions() throws {
        let map = try FlexBuffer.root(of: Self.detectionOptions()).map
        // Keys and values as an independent FlexBuffers decoder (the Python flatbuffers
        // package) reads them from this model.
        #expect(try map.keyStrings == ["h_scale", "max_classes_per_detection", "max_detections", "nms_iou_threshold",
                                       "nms_score_threshold", "num_classes", "use_regular_nms", "w_scale", "x_scale", "y_scale"])
        #expect(try map["num_classes"]?.asInt == 5)
        #expect(try map["max_classes_per_detection"]?.asInt == 1)
        #expect(try map["nms_iou_threshold"]?.asFloat == 0.5)
        #expect(try map["y_scale"]?.asDouble == 10)
        #expect(try map["h_scale"]?.asDouble == 5)
        #expect(try map["use_regular_nms"]?.asBool == false)
        // The golden detections have max_detections rows.
        let detector = try #require(try CorpusCase.all().first { $0.model == "models/ssd_detector_float.tflite" })
        #expect(try map["max_detections"]?.asInt == Int64(detector.outputs[0].shape[1]))
    }

    /// Random byte flips, truncations and splices of the real options: every read either
    /// succeeds or throws.
    @Test func mutatedOptionsNeverCrash() throws {
        let original = try Self.detectionOptions()
        var rng = SplitMix64(seed: 0x5EED)
        var thrown = 0
        let iterations = 20_000
        for _ in 0..<iterations {
            var bytes = original
            switch rng.next() % 3 {
            case 0:
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
                }
            case 1:
                bytes.removeFirst(Int(rng.next() % UInt64(bytes.count)))
            default:
                let cut = Int(rng.next() % UInt64(bytes.count))
                bytes = Array(bytes[..<cut]) + Array(original[(original.count - cut / 2)...])
            }
            if !Self.walk(bytes) { thrown += 1 }
        }
        #expect(thrown > 0 && thrown < iterations, "both outcomes occur")
    }

    /// Reads every value reachable from the root (to a bounded depth, since a FlexBuffer
    /// offset of zero points at itself). Returns false when something threw.
    static func walk(_ bytes: [UInt8]) -> Bool {
        func visit(_ value: FlexBuffer.Reference, depth: Int) throws {
            guard depth < 8 else { return }
            switch value.type {
            case .map:
                let map = try value.map
                _ = try map.keyStrings
                for i in 0..<map.count { try visit(map.values[i], depth: depth + 1) }
            case .vector, .vectorInt, .vectorUInt, .vectorFloat, .vectorKey, .vectorBool, .vectorStringDeprecated,
                 .vectorInt2, .vectorUInt2, .vectorFloat2, .vectorInt3, .vectorUInt3, .vectorFloat3,
                 .vectorInt4, .vectorUInt4, .vectorFloat4:
                let vector = try value.vector
                for i in 0..<vector.count { try visit(vector[i], depth: depth + 1) }
            case .string, .key: _ = try value.asString
            case .blob: _ = try value.asBytes
            case .float, .indirectFloat: _ = try value.asDouble
            case .int, .indirectInt: _ = try value.asInt
            case .uint, .indirectUInt, .bool: _ = try value.asUInt
            case .null: break
            }
        }
        do {
            try visit(FlexBuffer.root(of: bytes), depth: 0)
            return true
        } catch {
            return false
        }
    }
}


import Testing
@testable import TFLiteRuntime

/// TFLite's packed string layout, and the checks that keep a malformed buffer (from a model
/// file or a caller) from sending a read outside it.
@Suite struct PackedStringsTests {
    static func int32s(_ values: [Int32]) -> [UInt8] { values.withUnsafeBytes { Array($0) } }

    @Test func encodesCountOffsetsThenBytes() throws {
        let packed = PackedStrings.encode(["ab", "", "c"])
        #expect(packed == Self.int32s([3, 20, 22, 22, 23]) + Array("abc".utf8))
        #expect(try PackedStrings.decode(packed) == [Array("ab".utf8), [], Array("c".utf8)])
        #expect(try PackedStrings.decode(PackedStrings.encode([String]())) == [])
    }

    @Test func rejectsMalformedBuffers() {
        #expect(throws: PackedStrings.FormatError.truncated(byteCount: 4)) { try PackedStrings.decode([1, 0, 0, 0]) }
        #expect(throws: PackedStrings.FormatError.negativeCount(-1)) { try PackedStrings.decode(Self.int32s([-1, 8])) }
        #expect(throws: PackedStrings.FormatError.offsetsPastEnd(count: Int(Int32.max), byteCount: 12)) {
            try PackedStrings.decode(Self.int32s([Int32.max, 12, 12]))
        }
        // An offset before the table's end, one past the buffer, and one going backwards.
        #expect(throws: PackedStrings.FormatError.badOffset(index: 0, offset: 4)) { try PackedStrings.decode(Self.int32s([1, 4, 12])) }
        #expect(throws: PackedStrings.FormatError.badOffset(index: 1, offset: 99)) { try PackedStrings.decode(Self.int32s([1, 12, 99])) }
        #expect(throws: PackedStrings.FormatError.badOffset(index: 2, offset: 17)) {
            try PackedStrings.decode(Self.int32s([2, 16, 18, 17]) + [0, 0])
        }
    }
}

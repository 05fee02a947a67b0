import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// String arrays in `.npy` files as NumPy writes them: byte strings (`|S<n>`) read and written
/// as they are, unicode (`<U<n>`) read as UTF-8.
@Suite struct NPYStringTests {
    static func fixture(_ name: String) -> String {
        Fixtures.root.appendingPathComponent("Tests/Fixtures/runtime/\(name)").path
    }

    @Test func readsNumPyByteStrings() throws {
        let a = try NPYArray(contentsOf: Self.fixture("byte_strings.npy"))
        #expect(a.dtype == .bytes)
        #expect(a.itemSize == 8)
        #expect(a.shape == [3])
        // NumPy pads with NULs and drops trailing ones on reading; inner NULs stay.
        #expect(a.byteStrings == [Array("tab\there".utf8), [], [0x78, 0x00, 0x79]])
        #expect(try NPYArray(npyBytes: a.npyBytes()) == a)
    }

    @Test func readsNumPyUnicodeAsUTF8() throws {
        let a = try NPYArray(contentsOf: Self.fixture("unicode_strings.npy"))
        #expect(a.dtype == .bytes)
        #expect(a.shape == [2, 2])
        #expect(a.byteStrings?.map { String(decoding: $0, as: UTF8.self) } == ["café", "a", "", "日本語"])
        // As wide as the longest UTF-8 string: 日本語 is 9 bytes.
        #expect(a.itemSize == 9)
    }

    @Test func buildsByteStringArrays() throws {
        let a = try NPYArray(strings: [Array("ab".utf8), Array("abcd".utf8)], shape: [2])
        #expect(a.itemSize == 4)
        #expect(a.data == Array("ab".utf8) + [0, 0] + Array("abcd".utf8))
        #expect(try NPYArray(strings: [[], []], shape: [2]).itemSize == 1)
        #expect(throws: NPYError.self) { try NPYArray(strings: [[1]], shape: [2]) }
    }

    @Test func rejectsMalformedStringHeaders() throws {
        let good = try NPYArray(strings: [Array("xyz".utf8)], shape: [1]).npyBytes()
        let header = String(decoding: good, as: UTF8.self)
        for bad in ["|S0", "|S", "<U99999999999"] {
            let corrupted = Array(header.replacingOccurrences(of: "|S3", with: bad).utf8)
            #expect(throws: NPYError.self) { try NPYArray(npyBytes: corrupted) }
        }
    }
}

import TestSupport
import Testing
import FlatBuffers

/// Reading well-formed buffers: every field kind, defaults for absent fields.
@Suite struct FlatBufferReaderTests {
    /// A root table with: 0 int32, 1 float, 2 bool, 3 string, 4 [int16], 5 sub-table
    /// (field 0: int64), 6 [table], 7 absent, 8 [ubyte].
    static func sample() -> [UInt8] {
        var w = ForwardWriter()
        let root = w.table([4, 4, 1, 4, 4, 4, 4, nil, 4])
        w.setRoot(root.position)
        w.set(Int32(-123_456), at: root.fields[0]!)
        w.set(Float(2.5).bitPattern, at: root.fields[1]!)
        w.set(UInt8(1), at: root.fields[2]!)
        w.link(root.fields[3]!, to: w.string("héllo"))
        w.link(root.fields[4]!, to: w.vector([Int16(-1), 7, 300]))
        let sub = w.table([8])
        w.link(root.fields[5]!, to: sub.position)
        w.set(Int64.min + 5, at: sub.fields[0]!)
        let list = w.offsetVector(count: 2)
        w.link(root.fields[6]!, to: list.position)
        for (i, slot) in list.slots.enumerated() {
            let element = w.table([4])
            w.link(slot, to: element.position)
            w.set(UInt32(10 + i), at: element.fields[0]!)
        }
        w.link(root.fields[8]!, to: w.vector([UInt8](repeating: 9, count: 5)))
        return w.bytes
    }

    @Test func readsEveryFieldKind() throws {
        try withBuffer(Self.sample()) { buffer in
            let root = try buffer.root()
            #expect(buffer.fileIdentifier == "TEST")
            #expect(try root.integer(0, default: Int32(0), "f0") == -123_456)
            #expect(try root.float(1, default: 0, "f1") == 2.5)
            #expect(try root.bool(2, default: false, "f2"))
            #expect(try root.string(3, "f3") == "héllo")
            #expect(try root.integers(4, of: Int16.self, "f4") == [-1, 7, 300])
            let sub = try #require(try root.table(5, "f5"))
            #expect(sub.depth == 1)
            #expect(try sub.integer(0, default: Int64(0), "sub") == Int64.min + 5)
            let list = try root.tables(6, "f6")
            #expect(try list.map { try $0.integer(0, default: UInt32(0), "e") } == [10, 11])
            let range = try #require(try root.byteVector(8, "f8"))
            #expect(range.count == 5)
            #expect(Array(buffer.bytes[range]) == [UInt8](repeating: 9, count: 5))
        }
    }

    @Test func absentFieldsGiveDefaults() throws {
        try withBuffer(Self.sample()) { buffer in
            let root = try buffer.root()
            #expect(!root.hasField(7))
            #expect(try root.integer(7, default: Int32(42), "f7") == 42)
            #expect(try root.float(7, default: 1.5, "f7") == 1.5)
            #expect(try root.bool(20, default: true, "past the vtable"))
            #expect(try root.string(7, "f7") == nil)
            #expect(try root.table(7, "f7") == nil)
            #expect(try root.integers(7, of: Int32.self, "f7").isEmpty)
            #expect(try root.tables(7, "f7").isEmpty)
            #expect(try root.byteVector(7, "f7") == nil)
        }
    }

    /// A struct of two int32 stored inline in field 0, and one whose slot would run past its
    /// table.
    @Test func readsInlineStructs() throws {
        var w = ForwardWriter()
        let root = w.table([8])
        w.setRoot(root.position)
        w.set(Int32(-7), at: root.fields[0]!)
        w.set(Int32(9), at: root.fields[0]! + 4)
        try withBuffer(w.bytes) { buffer in
            let table = try buffer.root()
            let at = try #require(try table.structPosition(0, size: 8, alignment: 4, "pair"))
            #expect(Int32(littleEndian: buffer.bytes.loadUnaligned(fromByteOffset: at, as: Int32.self)) == -7)
            #expect(Int32(littleEndian: buffer.bytes.loadUnaligned(fromByteOffset: at + 4, as: Int32.self)) == 9)
            #expect(throws: FlatBufferError.self) { try table.structPosition(0, size: 16, alignment: 4, "too wide") }
            #expect(try table.structPosition(1, size: 8, alignment: 4, "absent") == nil)
        }
    }

    @Test func checksTheFileIdentifier() throws {
        try withBuffer(Self.sample()) { buffer in
            try buffer.expectIdentifier("TEST")
            let error = #expect(throws: FlatBufferError.self) { try buffer.expectIdentifier("TFL3") }
            #expect(error?.kind == .badIdentifier)
            #expect(error?.offset == 4)
        }
    }
}

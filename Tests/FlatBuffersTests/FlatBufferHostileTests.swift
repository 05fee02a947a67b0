import TestSupport
import Testing
import FlatBuffers

/// Each malformed buffer is rejected with the right kind of error at the right place.
@Suite struct FlatBufferHostileTests {
    /// Reads `bytes` the way a schema decoder would, visiting field 0 as a table and field 1
    /// as a vector of tables, recursively; returns the error it throws.
    static func decodeError(_ bytes: [UInt8], limits: FlatBufferLimits? = nil) -> FlatBufferError? {
        func visit(_ table: Table) throws {
            if let child = try table.table(0, "child") { try visit(child) }
            for element in try table.tables(1, "children") { try visit(element) }
            _ = try table.string(2, "name")
            _ = try table.integers(3, of: Int32.self, "values")
        }
        do {
            try withBuffer(bytes, limits: limits) { try visit($0.root()) }
            return nil
        } catch let error as FlatBufferError {
            return error
        } catch {
            return nil
        }
    }

    @Test func tooSmallBuffer() {
        let error = Self.decodeError([1, 2, 3])
        #expect(error?.kind == .outOfBounds)
    }

    @Test func rootOffsetPastEnd() {
        var w = ForwardWriter()
        w.setRoot(4096)
        let error = Self.decodeError(w.bytes)
        #expect(error?.kind == .outOfBounds)
        #expect(error?.offset == 0)
    }

    @Test func childOffsetPastEnd() {
        var w = ForwardWriter()
        let root = w.table([4])
        w.setRoot(root.position)
        w.set(UInt32(1_000_000), at: root.fields[0]!)
        let error = Self.decodeError(w.bytes)
        #expect(error?.kind == .outOfBounds)
        #expect(error?.offset == root.fields[0]!)
    }

    @Test func vtableOutOfRange() {
        var w = ForwardWriter()
        let root = w.table([4])
        w.setRoot(root.position)
        w.set(Int32(-100_000), at: root.position)  // vtable far past the end
        #expect(Self.decodeError(w.bytes)?.kind == .badVTable)
        w.set(Int32(root.position + 8), at: root.position)  // vtable before the start
        #expect(Self.decodeError(w.bytes)?.kind == .badVTable)
    }

    @Test func vtableWithOddOrTinyLength() {
        var w = ForwardWriter()
        let root = w.table([4])
        w.setRoot(root.position)
        let vtable = root.position - Int(w.bytes[root.position])
        w.set(UInt16(5), at: vtable)
        #expect(Self.decodeError(w.bytes)?.kind == .badVTable)
        w.set(UInt16(2), at: vtable)
        #expect(Self.decodeError(w.bytes)?.kind == .badVTable)
    }

    @Test func fieldOutsideItsTable() {
        var w = ForwardWriter()
        let root = w.table([nil, nil, nil, 4])
        w.setRoot(root.position)
        let vtable = root.position - Int(w.bytes[root.position])
        w.set(UInt16(200), at: vtable + 4 + 2 * 3)  // field 3 (values) placed past the table
        let error = Self.decodeError(w.bytes)
        #expect(error?.kind == .badVTable)
        #expect(error?.reason.contains("values") == true)
    }

    @Test func vectorLengthOverflow() {
        var w = ForwardWriter()
        let root = w.table([nil, nil, nil, 4])
        w.setRoot(root.position)
        let vector = w.vector([Int32(1), 2])
        w.link(root.fields[3]!, to: vector)
        w.set(UInt32.max, at: vector)
        let error = Self.decodeError(w.bytes)
        #expect(error?.kind == .lengthOverflow)
        #expect(error?.offset == vector)
    }

    @Test func stringWithoutTerminator() {
        var w = ForwardWriter()
        let root = w.table([nil, nil, 4])
        w.setRoot(root.position)
        let string = w.vector(Array("abc".utf8))  // no zero byte, and it ends the buffer
        w.link(root.fields[2]!, to: string)
        #expect(Self.decodeError(w.bytes)?.kind == .unterminatedString)
    }

    @Test func misalignedTable() {
        var w = ForwardWriter()
        let root = w.table([4])
        w.setRoot(root.position + 1)
        #expect(Self.decodeError(w.bytes)?.kind == .misaligned)
    }

    @Test func nestingDeeperThanTheLimit() {
        var w = ForwardWriter()
        var parent = w.table([4])
        w.setRoot(parent.position)
        for _ in 0..<70 {
            let child = w.table([4])
            w.link(parent.fields[0]!, to: child.position)
            parent = child
        }
        let last = w.table([nil])
        w.link(parent.fields[0]!, to: last.position)
        let error = Self.decodeError(w.bytes)
        #expect(error?.kind == .tooDeep)
        #expect(Self.decodeError(w.bytes, limits: FlatBufferLimits(maxDepth: 100, maxObjects: 10_000)) == nil)
    }

    /// Sixteen levels, each a vector of two offsets to the same next level: 2^17 visits from
    /// a buffer of under a kilobyte, stopped by the object budget.
    @Test func sharedSubtablesExhaustTheBudget() {
        var w = ForwardWriter()
        var parent = w.table([nil, 4])
        w.setRoot(parent.position)
        for _ in 0..<16 {
            let list = w.offsetVector(count: 2)
            w.link(parent.fields[1]!, to: list.position)
            let child = w.table([nil, 4])
            for slot in list.slots { w.link(slot, to: child.position) }
            parent = child
        }
        w.link(parent.fields[1]!, to: w.vector([UInt32]()))
        let error = Self.decodeError(w.bytes)
        #expect(error?.kind == .tooManyObjects)
        let visits = 1 << 17  // tables; as many vectors again
        #expect(Self.decodeError(w.bytes, limits: FlatBufferLimits(maxDepth: 64, maxObjects: 4 * visits)) == nil)
    }
}

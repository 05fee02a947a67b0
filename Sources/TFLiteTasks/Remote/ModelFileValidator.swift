import Foundation

/// Checks that a downloaded file is a usable model before it replaces the cached one; throws
/// to reject it. Runs on the verified temporary file, so a rejected file never reaches the
/// cache.
public typealias ModelFileValidator = @Sendable (URL) throws -> Void

extension ModelManager {
    /// The validator a `ModelManager` uses unless given another: checks the FlatBuffer
    /// framing of a `.tflite` file (the `TFL3` identifier at bytes 4..<8, the root table
    /// offset and the root table's vtable inside the file), reading only those few bytes.
    ///
    /// - Throws: `ModelDownloadError.invalidModel` saying which check failed.
    public static let flatBufferHeaderValidator: ModelFileValidator = { url in
        try FlatBufferHeader.check(fileAt: url)
    }
}

/// Reads and checks the handful of bytes that frame a TFLite FlatBuffer.
enum FlatBufferHeader {
    static func check(fileAt url: URL) throws {
        func invalid(_ reason: String) -> ModelDownloadError { .invalidModel(reason: reason) }
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw invalid("cannot open \(url.path): \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        let size: UInt64
        do {
            size = try handle.seekToEnd()
        } catch {
            throw invalid("cannot read \(url.path)")
        }
        func read(_ count: Int, at offset: UInt64) throws -> [UInt8] {
            guard offset <= size, UInt64(count) <= size - offset else {
                throw invalid("\(count) bytes at offset \(offset) lie past the end of the \(size)-byte file")
            }
            try handle.seek(toOffset: offset)
            let bytes = [UInt8](try handle.read(upToCount: count) ?? Data())
            guard bytes.count == count else { throw invalid("short read at offset \(offset)") }
            return bytes
        }
        func little(_ bytes: [UInt8]) -> UInt64 {
            bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard size >= 8 else { throw invalid("the file has \(size) bytes, too short for a FlatBuffer header") }
        let header = try read(8, at: 0)
        guard header[4...] == [0x54, 0x46, 0x4c, 0x33][...] else {
            throw invalid("bytes 4..<8 are not the TFLite file identifier 'TFL3'")
        }
        let root = little(Array(header[0..<4]))
        guard root >= 8, root % 4 == 0 else {
            throw invalid("root table offset \(root) must be a multiple of 4 past the 8-byte header")
        }
        // The root table starts with a signed offset back to its vtable.
        let tableToVtable = Int64(Int32(truncatingIfNeeded: UInt32(little(try read(4, at: root)))))
        let vtable = Int64(root) - tableToVtable
        guard vtable >= 0, UInt64(vtable) < size else {
            throw invalid("the root table at \(root) points to a vtable at \(vtable), outside the file")
        }
        let vtableHeader = try read(4, at: UInt64(vtable))
        let vtableSize = little(Array(vtableHeader[0..<2]))
        let tableSize = little(Array(vtableHeader[2..<4]))
        guard vtableSize >= 4, vtableSize % 2 == 0, UInt64(vtable) + vtableSize <= size else {
            throw invalid("the root vtable at \(vtable) has an invalid size \(vtableSize)")
        }
        guard tableSize >= 4, root + tableSize <= size else {
            throw invalid("the root table at \(root) has size \(tableSize), past the end of the file")
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and writes with the C library, for the core modules that do without
/// Foundation. Errors carry the path and the C library's reason.
public enum FileIO {
    /// Reads a whole file. Throws for a missing or unreadable file.
    public static func read(_ path: String) throws(NPYError) -> [UInt8] {
        guard let f = fopen(path, "rb") else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { fclose(f) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
            if n > 0 { out.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count {
                if ferror(f) != 0 { throw .io(path: path, reason: "read error") }
                return out
            }
        }
    }

    /// Writes `bytes` to `path`, replacing the file.
    public static func write(_ bytes: [UInt8], to path: String) throws(NPYError) {
        guard let f = fopen(path, "wb") else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
        let closed = fclose(f)
        guard written == bytes.count, closed == 0 else { throw .io(path: path, reason: "write failed") }
    }
}

extension NPYArray {
    /// Reads an `.npy` file.
    public init(contentsOf path: String) throws(NPYError) {
        try self.init(npyBytes: FileIO.read(path))
    }

    /// Writes this array as an `.npy` file.
    public func write(to path: String) throws(NPYError) {
        try FileIO.write(npyBytes(), to: path)
    }
}

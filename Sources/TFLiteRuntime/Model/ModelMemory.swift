#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a model and how to give them back: a read-only file mapping or a private
/// heap copy.
struct ModelMemory {
    enum Owner {
        case mapping
        case heap
    }

    let bytes: UnsafeRawBufferPointer
    let owner: Owner

    /// Copies `source` into memory aligned for any scalar the schema stores.
    static func copying(_ source: [UInt8]) -> ModelMemory {
        let region = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 16)
        source.withUnsafeBytes { region.copyMemory(from: $0) }
        return ModelMemory(bytes: UnsafeRawBufferPointer(rebasing: region[0..<source.count]), owner: .heap)
    }

    /// Maps the whole file at `path` read-only. The pages are loaded lazily by the kernel and
    /// shared with the page cache, so weights are never copied.
    static func mapping(_ path: String) throws(ModelError) -> ModelMemory {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .io(path: path, reason: "not a regular file") }
        let size = Int(status.st_size)
        guard size >= 8 else {
            throw .io(path: path, reason: "file of \(size) bytes is too small to be a TFLite model")
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0),
              base != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw .io(path: path, reason: "cannot map file: \(String(cString: strerror(errno)))")
        }
        return ModelMemory(bytes: UnsafeRawBufferPointer(start: base, count: size), owner: .mapping)
    }

    /// Returns the memory to the system.
    func release() {
        guard let base = bytes.baseAddress else { return }
        switch owner {
        case .mapping: munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        case .heap: base.deallocate()
        }
    }
}

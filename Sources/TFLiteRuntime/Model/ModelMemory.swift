#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a model (or of a file holding its external buffers) and how to give them
/// back: a read-only file mapping or a private heap copy.
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

    /// Maps the whole model file at `path` read-only. The pages are loaded lazily by the kernel
    /// and shared with the page cache, so weights are never copied.
    static func mapping(_ path: String) throws(ModelError) -> ModelMemory {
        let memory: ModelMemory
        do {
            memory = try mappingFile(path)
        } catch {
            throw .io(path: path, reason: error.reason)
        }
        guard memory.bytes.count >= 8 else {
            memory.release()
            throw .io(path: path, reason: "file of \(memory.bytes.count) bytes is too small to be a TFLite model")
        }
        return memory
    }

    /// Why a file could not be mapped: the system's words for it, or what kind of file it is.
    struct MappingFailure: Error {
        let reason: String
    }

    /// Maps the regular file at `path` read-only, whatever its size (an empty file maps to no
    /// memory); the model and the files of its external buffers share this.
    static func mappingFile(_ path: String) throws(MappingFailure) -> ModelMemory {
        /// The system's text for `errno`, after `context`.
        func systemFailure(_ context: String = "") -> MappingFailure {
            MappingFailure(reason: context + String(cString: strerror(errno)))
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw systemFailure() }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw systemFailure() }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw MappingFailure(reason: "not a regular file") }
        let size = Int(status.st_size)
        guard size > 0 else { return ModelMemory(bytes: UnsafeRawBufferPointer(start: nil, count: 0), owner: .mapping) }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0),
              base != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw systemFailure("cannot map file: ")
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

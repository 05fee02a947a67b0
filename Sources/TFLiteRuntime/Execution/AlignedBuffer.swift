#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Zero-filled memory aligned for the SIMD kernels, owned by its interpreter or node.
final class AlignedBuffer: @unchecked Sendable {
    /// All allocations are aligned to this many bytes.
    static let alignment = 64

    let pointer: UnsafeMutableRawPointer
    let byteCount: Int
    /// What `calloc` returned, `pointer` rounded down.
    private let allocation: UnsafeMutableRawPointer

    /// Fails only when the system has no memory left, which the runtime cannot recover from.
    init(byteCount: Int) {
        self.byteCount = byteCount
        // `calloc`, not an allocation and a fill: a large block comes from fresh pages the
        // system hands out zeroed when they are first touched, where a fill touched every page
        // of an arena at prepare. Never zero bytes: a zero-sized tensor still needs a valid
        // address.
        let size = max(byteCount, Self.alignment) + Self.alignment - 1
        guard let raw = calloc(size, 1) else { fatalError("out of memory: \(size) bytes") }
        allocation = raw
        let misalignment = Int(bitPattern: raw) % Self.alignment
        pointer = misalignment == 0 ? raw : raw + (Self.alignment - misalignment)
    }

    deinit {
        free(allocation)
    }
}

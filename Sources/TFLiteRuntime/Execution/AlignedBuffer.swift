/// A zero-initialised heap block with SIMD-friendly alignment, freed with its owner. Holds the
/// arena, scratch space, folded constants and variable tensors.
final class AlignedBuffer: @unchecked Sendable {
    /// All allocations are aligned to this many bytes.
    static let alignment = 64

    let pointer: UnsafeMutableRawPointer
    let byteCount: Int

    init(byteCount: Int) {
        self.byteCount = byteCount
        // Never allocate zero bytes: a zero-sized tensor still needs a valid address.
        pointer = .allocate(byteCount: max(byteCount, Self.alignment), alignment: Self.alignment)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: max(byteCount, Self.alignment))
    }

    deinit {
        pointer.deallocate()
    }
}

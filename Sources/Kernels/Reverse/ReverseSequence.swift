/// REVERSE_SEQUENCE: for each batch entry `b`, reverses the first `lengths[b]` elements along
/// the sequence axis and copies the rest unchanged. Elements are moved as bytes.
public enum ReverseSequence {
    /// Reverses prefixes of `input` (shape `shape`) into `output`, which must not alias it.
    /// - Parameters:
    ///   - lengths: one length per entry of the batch axis.
    ///   - sequenceAxis, batchAxis: distinct axes of `shape`.
    /// - Throws: `KernelError.indexOutOfRange` for a length outside `0...shape[sequenceAxis]`
    ///   (reported with bound `shape[sequenceAxis] + 1`).
    public static func run<Length: FixedWidthInteger>(input: UnsafeRawPointer, shape: [Int], elementSize: Int,
                                                      lengths: UnsafePointer<Length>, sequenceAxis: Int, batchAxis: Int,
                                                      output: UnsafeMutableRawPointer) throws(KernelError) {
        let batch = shape[batchAxis], sequence = shape[sequenceAxis]
        for b in 0..<batch {
            let l = Int(truncatingIfNeeded: lengths[b])
            guard l >= 0, l <= sequence else { throw .indexOutOfRange(index: l, bound: sequence + 1, position: b) }
        }
        let strides = Shape.strides(shape)
        let count = Shape.elementCount(shape)
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: shape.count) { index in
            index.initialize(repeating: 0)
            for flat in 0..<count {
                var source = flat
                let l = Int(truncatingIfNeeded: lengths[index[batchAxis]])
                let s = index[sequenceAxis]
                if s < l { source += (l - 1 - 2 * s) * strides[sequenceAxis] }
                (output + flat * elementSize).copyMemory(from: input + source * elementSize, byteCount: elementSize)
                stepOdometer(index.baseAddress!, extents: shape, lastAxis: shape.count - 1)
            }
        }
    }
}

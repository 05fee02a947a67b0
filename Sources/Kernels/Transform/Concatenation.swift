/// CONCATENATION and PACK on any element type.
///
/// The inputs and outputs come as buffers of pointers rather than arrays so the runtime can
/// gather them in stack memory at each invoke.
public enum Concatenation {
    /// A prepared concatenation: for each step along the axes before the concatenation axis,
    /// every input contributes one contiguous chunk of `chunkBytes[i]` bytes.
    public struct Plan: Sendable {
        let outerCount: Int
        let chunkBytes: [Int]

        /// Joining tensors of `inputShapes` (same rank, equal except along `axis`, which is
        /// non-negative) along `axis`.
        public init(inputShapes: [[Int]], axis: Int, elementSize: Int) {
            outerCount = inputShapes.first.map { Shape.product($0, 0..<axis) } ?? 0
            chunkBytes = inputShapes.map { Shape.product($0, axis..<$0.count) * elementSize }
        }

        /// PACK: stacking `inputCount` tensors of shape `inputShape` along a new axis `axis`
        /// (`0...inputShape.count`).
        public init(packing inputCount: Int, of inputShape: [Int], axis: Int, elementSize: Int) {
            var expanded = inputShape
            expanded.insert(1, at: axis)
            self.init(inputShapes: [[Int]](repeating: expanded, count: inputCount), axis: axis, elementSize: elementSize)
        }

        /// Joins `inputs` (one per planned shape) into `output`.
        public func run(inputs: UnsafeBufferPointer<UnsafeRawPointer>, output: UnsafeMutableRawPointer) {
            var dst = output
            for o in 0..<outerCount {
                for (i, input) in inputs.enumerated() where chunkBytes[i] > 0 {
                    dst.copyMemory(from: input + o * chunkBytes[i], byteCount: chunkBytes[i])
                    dst += chunkBytes[i]
                }
            }
        }
    }

    /// Joins `inputs` (same rank, equal except along `axis`) along `axis` (non-negative), planning
    /// and running in one call.
    public static func apply(inputs: UnsafeBufferPointer<UnsafeRawPointer>, inputShapes: [[Int]], axis: Int,
                             elementSize: Int, output: UnsafeMutableRawPointer) {
        Plan(inputShapes: inputShapes, axis: axis, elementSize: elementSize).run(inputs: inputs, output: output)
    }

    /// PACK: stacks `inputs`, all of shape `inputShape`, along a new axis `axis`
    /// (`0...inputShape.count`), in one call.
    public static func pack(inputs: UnsafeBufferPointer<UnsafeRawPointer>, inputShape: [Int], axis: Int,
                            elementSize: Int, output: UnsafeMutableRawPointer) {
        Plan(packing: inputs.count, of: inputShape, axis: axis, elementSize: elementSize).run(inputs: inputs, output: output)
    }
}

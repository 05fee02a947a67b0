/// Where the index vectors of a StableHLO gather or scatter lie in their indices tensor: one
/// vector per batch position (the indices' axes other than `index_vector_dim`, row-major),
/// its components `componentStride` apart.
public struct IndexVectorLayout: Sendable {
    /// Extents of the batch axes, in order.
    public let batchShape: [Int]
    /// Offset in the indices tensor of each batch axis's step.
    let batchStrides: [Int]
    /// Offset between an index vector's components (unused when the vector has one component
    /// because `index_vector_dim` equals the indices' rank).
    let componentStride: Int
    /// Components per index vector.
    public let componentCount: Int

    /// `indexVectorDim` lies in `0...indicesShape.count`.
    public init(indicesShape: [Int], indexVectorDim: Int) {
        let strides = Shape.strides(indicesShape)
        let axes = indicesShape.indices.filter { $0 != indexVectorDim }
        batchShape = axes.map { indicesShape[$0] }
        batchStrides = axes.map { strides[$0] }
        let implicit = indexVectorDim == indicesShape.count
        componentStride = implicit ? 0 : strides[indexVectorDim]
        componentCount = implicit ? 1 : indicesShape[indexVectorDim]
    }

    public var batchCount: Int { Shape.elementCount(batchShape) }

    /// Calls `body(position, base)` for each batch position in row-major order with the
    /// offset of its index vector's first component.
    @inline(__always)
    func forEachVector(_ body: (Int, Int) -> Void) {
        let count = batchCount, rank = batchShape.count
        guard count > 0 else { return }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(rank, 1)) { index in
            index.initialize(repeating: 0)
            var base = 0
            for b in 0..<count {
                body(b, base)
                stepOdometer(index.baseAddress!, extents: batchShape, lastAxis: rank - 1) { d, by in
                    base += batchStrides[d] * by
                }
            }
        }
    }

    /// Component `k` of the vector at `base`, widened.
    @inline(__always)
    func component<I: BinaryInteger>(_ indices: UnsafePointer<I>, _ base: Int, _ k: Int) -> Int64 {
        Int64(truncatingIfNeeded: indices[base + k * componentStride])
    }
}

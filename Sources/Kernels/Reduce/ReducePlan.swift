/// A reduction's axes resolved once at prepare. The output holds the input's non-reduced
/// dimensions in order (`keep_dims` only changes the shape the runtime reports).
public struct ReducePlan: Sendable, Equatable {
    /// The input shape.
    public let inputShape: [Int]
    /// The reduced axes, non-negative, sorted, without repeats.
    public let axes: [Int]
    /// Number of output elements.
    public let outputCount: Int
    /// Number of input elements folded into each output element.
    public let reducedCount: Int
    /// The output shape without kept dimensions.
    public let outputShape: [Int]
    @usableFromInline let outputStrides: [Int]

    /// Plans a reduction of `inputShape` over `axes` (negative axes count from the end,
    /// repeats are allowed as in TFLite). Nil when an axis is out of range.
    public init?(inputShape: [Int], axes: [Int]) {
        let rank = inputShape.count
        var set: [Int] = []
        for a in axes {
            let axis = a < 0 ? a + rank : a
            guard axis >= 0 && axis < rank else { return nil }
            if !set.contains(axis) { set.append(axis) }
        }
        set.sort()
        self.inputShape = inputShape
        self.axes = set
        var outShape: [Int] = []
        for d in 0..<rank where !set.contains(d) { outShape.append(inputShape[d]) }
        outputShape = outShape
        outputCount = Shape.elementCount(outShape)
        reducedCount = set.reduce(1) { $0 * inputShape[$1] }
        // Stride of each input axis within the output: 0 along reduced axes.
        var strides = [Int](repeating: 0, count: rank)
        var s = 1
        for d in stride(from: rank - 1, through: 0, by: -1) where !set.contains(d) {
            strides[d] = s
            s *= inputShape[d]
        }
        outputStrides = strides
    }

    /// Calls `body(inputOffset, outputOffset)` for every input element, in input order.
    @inline(__always)
    func forEachElement(_ body: (Int, Int) -> Void) {
        guard !inputShape.isEmpty else { return body(0, 0) }
        outputStrides.withUnsafeBufferPointer {
            forEachReducedElement(inputShape: inputShape, outputStrides: $0.baseAddress!, body)
        }
    }
}

/// Calls `body(inputIndex, outputIndex)` for every input element of a non-empty `inputShape`
/// (rank at least 1) in row-major order, where `outputStrides[d]` is axis `d`'s stride in the
/// reduced output (0 on reduced axes), so `outputIndex` is the element's output position.
///
/// The innermost axis is a plain loop, its output index advancing by 1 (kept) or 0 (reduced),
/// and the odometer moves once per row: a global average pool (MEAN over height and width,
/// channels innermost) then sums whole channel rows in vectors, with no odometer step between
/// the elements of a row.
@inline(__always)
func forEachReducedElement(inputShape: [Int], outputStrides: UnsafePointer<Int>, _ body: (Int, Int) -> Void) {
    let rank = inputShape.count
    let total = Shape.elementCount(inputShape)
    guard total > 0 else { return }
    // The odometer lives on the stack: this runs at every invoke, which must not allocate.
    withUnsafeTemporaryAllocation(of: Int.self, capacity: rank) { counter in
        counter.initialize(repeating: 0)
        let inner = inputShape[rank - 1], innerKept = outputStrides[rank - 1] != 0
        var o = 0, i = 0
        while i < total {
            if innerKept {
                for k in 0..<inner { body(i &+ k, o &+ k) }
            } else {
                for k in 0..<inner { body(i &+ k, o) }
            }
            i &+= inner
            stepOdometer(counter.baseAddress!, extents: inputShape, lastAxis: rank - 2) { axis, by in
                o += outputStrides[axis] * by
            }
        }
    }
}

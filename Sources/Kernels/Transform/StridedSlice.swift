/// STRIDED_SLICE and SLICE on any element type.
///
/// The copy works on a resolved, per-input-axis description (start, step, count). The mask
/// logic of STRIDED_SLICE (begin/end/ellipsis/new-axis/shrink masks, negative indices and
/// strides, the `offset` flag) is resolved once by ``resolve(inputShape:begin:end:strides:beginMask:endMask:ellipsisMask:newAxisMask:shrinkAxisMask:offset:)``.
public enum StridedSlice {
    /// A slice resolved against the input shape.
    public struct Resolved: Sendable, Equatable {
        /// First input index along each input axis.
        public var start: [Int]
        /// Step along each input axis (never 0; negative walks backwards).
        public var step: [Int]
        /// Elements taken along each input axis.
        public var count: [Int]
        /// The output shape: the counts, minus shrunk axes, plus new axes of size 1.
        public var outputShape: [Int]

        /// Creates a resolved slice.
        public init(start: [Int], step: [Int], count: [Int], outputShape: [Int]) {
            self.start = start
            self.step = step
            self.count = count
            self.outputShape = outputShape
        }
    }

    /// Resolves STRIDED_SLICE's sparse specification (one entry per `begin` element) against
    /// `inputShape`, following TensorFlow's dense-spec rules. Nil when the specification is
    /// invalid: lengths differ, a stride is 0, more than one ellipsis, too many axes, or a
    /// shrunk index out of range.
    public static func resolve(inputShape: [Int], begin: [Int], end: [Int], strides: [Int],
                               beginMask: Int32, endMask: Int32, ellipsisMask: Int32,
                               newAxisMask: Int32, shrinkAxisMask: Int32, offset: Bool = false) -> Resolved? {
        let n = begin.count
        guard end.count == n, strides.count == n, ellipsisMask.nonzeroBitCount <= 1,
              n <= 32 else { return nil }
        func bit(_ mask: Int32, _ i: Int) -> Bool { i < 32 && (mask >> Int32(i)) & 1 == 1 }
        let rank = inputShape.count
        // Per dense axis: (begin, end, stride, beginMasked, endMasked, shrink).
        var dense: [(b: Int, e: Int, s: Int, bm: Bool, em: Bool, shrink: Bool)] =
            Array(repeating: (0, 0, 1, true, true, false), count: rank)
        // For each output axis: a dense axis index, or -1 for a new axis.
        var gather: [Int] = []
        var hasEllipsis = false
        var axis = 0
        let newAxesAfterEllipsis: Int = {
            guard let e = (0..<n).first(where: { bit(ellipsisMask, $0) }) else { return 0 }
            return ((e + 1)..<Swift.max(e + 1, n)).filter { bit(newAxisMask, $0) && !bit(ellipsisMask, $0) }.count
        }()
        for i in 0..<n {
            if bit(ellipsisMask, i) {
                hasEllipsis = true
                // The ellipsis covers every axis the remaining entries do not name.
                let next = Swift.min(rank - (n - i) + 1 + newAxesAfterEllipsis, rank)
                while axis < next { gather.append(axis); axis += 1 }
            } else if bit(newAxisMask, i) {
                gather.append(-1)
            } else {
                guard axis < rank, strides[i] != 0 else { return nil }
                dense[axis] = (begin[i], end[i], strides[i], bit(beginMask, i), bit(endMask, i), bit(shrinkAxisMask, i))
                gather.append(axis)
                axis += 1
            }
        }
        if !hasEllipsis {
            // An implicit trailing ellipsis keeps the unnamed axes whole.
            while axis < rank { gather.append(axis); axis += 1 }
        }
        var start = [Int](repeating: 0, count: rank), step = [Int](repeating: 1, count: rank)
        var count = [Int](repeating: 0, count: rank)
        for d in 0..<rank {
            let dim = inputShape[d]
            let spec = dense[d]
            if spec.shrink {
                let b = spec.b < 0 ? spec.b + dim : spec.b
                guard b >= 0 && b < dim else { return nil }
                start[d] = b; step[d] = 1; count[d] = 1
                continue
            }
            let s = spec.s
            // TFLite's StridedSliceStartForAxis / EndForAxis: wrap negatives, clamp to the
            // walkable range for the stride's direction, then let the masks override.
            func clamp(_ v: Int) -> Int { s > 0 ? Swift.min(Swift.max(v, 0), dim) : Swift.min(Swift.max(v, -1), dim - 1) }
            var b = clamp(spec.b < 0 ? spec.b + dim : spec.b)
            if spec.bm { b = s > 0 ? 0 : dim - 1 }
            var e = offset ? spec.e + b : spec.e
            if e < 0 { e += dim }
            e = clamp(e)
            if spec.em { e = s > 0 ? dim : -1 }
            let span = s > 0 ? e - b : b - e
            let magnitude = Swift.abs(s)
            count[d] = span <= 0 ? 0 : (span + magnitude - 1) / magnitude
            start[d] = count[d] == 0 ? 0 : b
            step[d] = s
        }
        var outShape: [Int] = []
        for g in gather {
            if g < 0 { outShape.append(1) } else if !dense[g].shrink { outShape.append(count[g]) }
        }
        return Resolved(start: start, step: step, count: count, outputShape: outShape)
    }

    /// The prepared copy of the resolved slice (the output is laid out by `resolved.count`,
    /// which has the same element order as `resolved.outputShape`).
    public static func plan(inputShape: [Int], resolved: Resolved, elementSize: Int) -> IndexMapCopy {
        let strides = Shape.strides(inputShape)
        let tables = inputShape.indices.map { d in
            (0..<resolved.count[d]).map { (resolved.start[d] + $0 * resolved.step[d]) * strides[d] }
        }
        return IndexMapCopy(outputShape: resolved.count, tables: tables, elementSize: elementSize)
    }

    /// SLICE: `size[d]` elements from `begin[d]` along each axis (the runtime resolves a size
    /// of -1 to "to the end").
    public static func planSlice(inputShape: [Int], begin: [Int], size: [Int], elementSize: Int) -> IndexMapCopy {
        let resolved = Resolved(start: begin, step: [Int](repeating: 1, count: begin.count), count: size, outputShape: size)
        return plan(inputShape: inputShape, resolved: resolved, elementSize: elementSize)
    }

    /// Copies the resolved slice of `input` into `output` in one call.
    public static func apply(input: UnsafeRawPointer, inputShape: [Int], resolved: Resolved,
                             elementSize: Int, output: UnsafeMutableRawPointer) {
        plan(inputShape: inputShape, resolved: resolved, elementSize: elementSize).run(input: input, output: output)
    }

    /// SLICE in one call.
    public static func slice(input: UnsafeRawPointer, inputShape: [Int], begin: [Int], size: [Int],
                             elementSize: Int, output: UnsafeMutableRawPointer) {
        planSlice(inputShape: inputShape, begin: begin, size: size, elementSize: elementSize).run(input: input, output: output)
    }
}

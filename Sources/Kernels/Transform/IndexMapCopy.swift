/// The engine behind the separable data-movement ops (TRANSPOSE, TILE, BROADCAST_TO, PAD,
/// MIRROR_PAD, SLICE, STRIDED_SLICE, REVERSE_V2): the output is walked in order, and along each
/// output axis `d` a table gives the input offset contributed by each index (in elements),
/// so `input offset = sum_d table[d][index_d]`. A negative entry marks padding.
///
/// A value is a prepared copy: the tables and the runs of the innermost axis depend only on
/// shapes, so the runtime builds them once at prepare and ``run(input:output:padValue:)``
/// allocates nothing. Stretches of the last axis whose offsets are consecutive are copied with
/// one `memcpy`.
public struct IndexMapCopy: Sendable {
    let outputShape: [Int]
    let tables: [[Int]]
    let runs: [Run]
    let elementSize: Int

    init(outputShape: [Int], tables: [[Int]], elementSize: Int) {
        (self.outputShape, self.tables) = Self.mergingContiguousInnerAxes(outputShape, tables)
        self.runs = self.outputShape.isEmpty ? [] : Self.innerRuns(self.tables[self.outputShape.count - 1])
        self.elementSize = elementSize
    }

    /// Longest merged innermost table kept (entries): merging stops before the table would
    /// approach the size of the tensor itself.
    static let mergedTableLimit = 1 << 16

    /// While the innermost axis copies its input axis whole and in order (table `0, 1, ...,
    /// n-1`), folds it into the axis before: entry `(j, i)` of the merged table is `t[j] + i`,
    /// or padding where `t[j]` is. A PAD of height and width on an NHWC tensor then copies
    /// each output row as one run of `width * channels` elements between two fills, instead of
    /// one `memcpy` per pixel.
    static func mergingContiguousInnerAxes(_ shape: [Int], _ tables: [[Int]]) -> ([Int], [[Int]]) {
        var shape = shape, tables = tables
        while shape.count >= 2 {
            let r = shape.count - 1, n = shape[r]
            guard tables[r].elementsEqual(0..<n), shape[r - 1] * n <= mergedTableLimit else { break }
            var merged: [Int] = []
            merged.reserveCapacity(shape[r - 1] * n)
            for t in tables[r - 1] {
                for i in 0..<n { merged.append(t < 0 ? -1 : t + i) }
            }
            shape.removeLast()
            tables.removeLast()
            shape[r - 1] *= n
            tables[r - 1] = merged
        }
        return (shape, tables)
    }

    /// Copies `input` to `output` through the tables; padding gets copies of `padValue` (one
    /// element), or zeros when nil. Large copies are split across `threads` by rows of the
    /// innermost (merged) axis.
    public func run(input: UnsafeRawPointer, output: UnsafeMutableRawPointer, padValue: UnsafeRawPointer? = nil,
                    threads: ThreadPool? = nil) {
        let rank = outputShape.count
        let total = Shape.elementCount(outputShape)
        guard total > 0 else { return }
        if rank == 0 {
            output.copyMemory(from: input, byteCount: elementSize)
            return
        }
        let rowCount = total / outputShape[rank - 1]
        // A byte moved counts as an element operation: a copy of 128 KiB or more is split.
        ThreadPool.split(threads, count: rowCount, work: total * elementSize) { rows in
            run(rows: rows, input: input, output: output, padValue: padValue)
        }
    }

    /// Output rows `rows` (of the innermost axis) of ``run(input:output:padValue:threads:)``.
    ///
    /// A channel PAD (BlazeFace widens its residual branches this way) has a row per pixel of a
    /// few dozen bytes, so the per-row cost is what matters: each outer axis's table entry is
    /// cached and looked up again only when that axis advances, and short runs are copied and
    /// zeroed inline rather than through `memcpy`/`memset` calls.
    private func run(rows: Range<Int>, input: UnsafeRawPointer, output: UnsafeMutableRawPointer, padValue: UnsafeRawPointer?) {
        let rank = outputShape.count
        // The odometer over the outer axes and each axis's table entry live on the stack: this
        // runs at every invoke.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * rank) { scratch in
            let index = scratch.baseAddress!, entry = index + rank
            // The odometer of the first row.
            var rest = rows.lowerBound
            index[rank - 1] = 0
            for d in stride(from: rank - 2, through: 0, by: -1) {
                index[d] = rest % outputShape[d]
                rest /= outputShape[d]
            }
            for d in 0..<(rank - 1) { entry[d] = tables[d][index[d]] }
            let inner = outputShape[rank - 1]
            let rowBytes = inner * elementSize
            var dst = output + rows.lowerBound * rowBytes
            runs.withUnsafeBufferPointer { runs in
                for _ in rows {
                    // Sum of the outer axes' table entries, or padding if any is padding.
                    var base = 0, padded = false
                    for d in 0..<(rank &- 1) {
                        let t = entry[d]
                        if t < 0 { padded = true } else { base &+= t }
                    }
                    if padded {
                        Self.fill(dst, padValue, count: inner, elementSize: elementSize)
                    } else {
                        for run in runs {
                            let target = dst + run.start &* elementSize
                            if run.source < 0 {
                                Self.fill(target, padValue, count: run.length, elementSize: elementSize)
                            } else if run.length == 1 {
                                Self.copyElement(from: input + (base &+ run.source) &* elementSize, to: target, elementSize)
                            } else {
                                Self.copyBytes(from: input + (base &+ run.source) &* elementSize, to: target,
                                               count: run.length &* elementSize)
                            }
                        }
                    }
                    dst += rowBytes
                    stepOdometer(index, extents: outputShape, lastAxis: rank - 2) { d, _ in
                        entry[d] = tables[d][index[d]]
                    }
                }
            }
        }
    }

    /// Copies `count` bytes: up to 256 with 16-byte vector moves (the last one overlapping the
    /// one before), longer ones with `memcpy`.
    @inline(__always)
    static func copyBytes(from src: UnsafeRawPointer, to dst: UnsafeMutableRawPointer, count: Int) {
        guard count >= 16, count <= 256 else {
            dst.copyMemory(from: src, byteCount: count)
            return
        }
        var i = 0
        while i &+ 16 < count {
            dst.storeBytes(of: src.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self), toByteOffset: i, as: SIMD16<UInt8>.self)
            i &+= 16
        }
        let last = count &- 16
        dst.storeBytes(of: src.loadUnaligned(fromByteOffset: last, as: SIMD16<UInt8>.self), toByteOffset: last, as: SIMD16<UInt8>.self)
    }

    /// A stretch of the innermost axis that is either consecutive input elements starting at
    /// `source`, or padding (`source < 0`).
    struct Run {
        var start: Int
        var length: Int
        var source: Int
    }

    /// Splits the innermost table into maximal runs, so a padded row costs one fill and one
    /// `memcpy` per side instead of one call per element.
    static func innerRuns(_ table: [Int]) -> [Run] {
        var runs: [Run] = []
        for (i, t) in table.enumerated() {
            if var last = runs.last,
               (t < 0 && last.source < 0) || (t >= 0 && last.source >= 0 && t == last.source + last.length) {
                last.length += 1
                runs[runs.count - 1] = last
            } else {
                runs.append(Run(start: i, length: 1, source: t < 0 ? -1 : t))
            }
        }
        return runs
    }

    /// Writes `count` copies of the pad element (zero bytes when there is none).
    @inline(__always)
    static func fill(_ dst: UnsafeMutableRawPointer, _ value: UnsafeRawPointer?, count: Int, elementSize: Int) {
        guard let value else {
            let bytes = count &* elementSize
            guard bytes >= 16, bytes <= 256 else {
                dst.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
                return
            }
            // Short zero runs (a few padded channels) inline, like `copyBytes`.
            var i = 0
            while i &+ 16 < bytes {
                dst.storeBytes(of: SIMD16<UInt8>(), toByteOffset: i, as: SIMD16<UInt8>.self)
                i &+= 16
            }
            dst.storeBytes(of: SIMD16<UInt8>(), toByteOffset: bytes &- 16, as: SIMD16<UInt8>.self)
            return
        }
        for i in 0..<count { copyElement(from: value, to: dst + i * elementSize, elementSize) }
    }

    /// Copies one element, with plain loads and stores for the common sizes.
    @inline(__always)
    static func copyElement(from src: UnsafeRawPointer, to dst: UnsafeMutableRawPointer, _ size: Int) {
        switch size {
        case 1: dst.storeBytes(of: src.load(as: UInt8.self), as: UInt8.self)
        case 2: dst.storeBytes(of: src.loadUnaligned(as: UInt16.self), as: UInt16.self)
        case 4: dst.storeBytes(of: src.loadUnaligned(as: UInt32.self), as: UInt32.self)
        case 8: dst.storeBytes(of: src.loadUnaligned(as: UInt64.self), as: UInt64.self)
        default: dst.copyMemory(from: src, byteCount: size)
        }
    }
}

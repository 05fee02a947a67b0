import TestSupport
import Testing
import Kernels

/// The multi-index of a flat offset.
func unflatten(_ flat: Int, _ shape: [Int]) -> [Int] {
    var rem = flat, idx = [Int](repeating: 0, count: shape.count)
    for d in stride(from: shape.count - 1, through: 0, by: -1) { idx[d] = rem % shape[d]; rem /= shape[d] }
    return idx
}

/// The flat offset of a multi-index.
func flatten(_ idx: [Int], _ shape: [Int]) -> Int {
    var o = 0
    for d in shape.indices { o = o * shape[d] + idx[d] }
    return o
}

/// Runs a byte-level op on numbered elements of `size` bytes (element i holds the value i) and
/// returns the numbers found in the output.
func numbered(_ count: Int, outputCount: Int, elementSize: Int,
              _ body: (UnsafeRawPointer, UnsafeMutableRawPointer) -> Void) -> [Int] {
    switch elementSize {
    case 1:
        let i = TestBuffer((0..<count).map { UInt8(truncatingIfNeeded: $0) }), o = TestBuffer(repeating: UInt8(0xEE), count: outputCount)
        body(i.raw, o.mutableRaw); return o.array.map(Int.init)
    case 2:
        let i = TestBuffer((0..<count).map { Int16($0) }), o = TestBuffer(repeating: Int16(-7), count: outputCount)
        body(i.raw, o.mutableRaw); return o.array.map(Int.init)
    case 8:
        let i = TestBuffer((0..<count).map { Int64($0) }), o = TestBuffer(repeating: Int64(-7), count: outputCount)
        body(i.raw, o.mutableRaw); return o.array.map(Int.init)
    case 3:
        // An odd element size exercises the byte-copy fallback: three bytes per element.
        let i = TestBuffer((0..<count).flatMap { v -> [UInt8] in [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), 0x5A] })
        let o = TestBuffer(repeating: UInt8(0xEE), count: outputCount * 3)
        body(i.raw, o.mutableRaw)
        let b = o.array
        return (0..<outputCount).map { Int(b[$0 * 3]) | Int(b[$0 * 3 + 1]) << 8 | (b[$0 * 3 + 2] == 0x5A ? 0 : 1 << 30) }
    default:
        let i = TestBuffer((0..<count).map { Int32($0) }), o = TestBuffer(repeating: Int32(-7), count: outputCount)
        body(i.raw, o.mutableRaw); return o.array.map(Int.init)
    }
}

/// What `numbered` reads back for element number `value`: one-byte elements keep the low 8
/// bits and three-byte elements the low 16.
func stored(_ values: [Int], elementSize: Int) -> [Int] {
    switch elementSize {
    case 1: return values.map { $0 & 0xFF }
    case 3: return values.map { $0 & 0xFFFF }
    default: return values
    }
}

@Suite struct TransformTests {
    @Test(arguments: [1, 2, 3, 4, 8])
    func transposeMovesEveryElement(elementSize: Int) {
        var rng = SplitMix64(seed: UInt64(70 + elementSize))
        for _ in 0..<25 {
            let rank = rng.int(0...6)
            let shape = (0..<rank).map { _ in rng.int(1...4) }
            let perm = Array(0..<rank).shuffled(using: &rng)
            let outShape = Transpose.outputShape(inputShape: shape, permutation: perm)
            let n = Shape.elementCount(shape)
            let got = numbered(n, outputCount: n, elementSize: elementSize) { i, o in
                Transpose.apply(input: i, inputShape: shape, permutation: perm, elementSize: elementSize, output: o)
            }
            let want = (0..<n).map { flat -> Int in
                let oi = unflatten(flat, outShape)
                var ii = [Int](repeating: 0, count: rank)
                for d in 0..<rank { ii[perm[d]] = oi[d] }
                return flatten(ii, shape)
            }
            #expect(got == stored(want, elementSize: elementSize), "\(shape) \(perm)")
        }
    }

    @Test func depthToSpaceAndBack() {
        let s = NHWC(batch: 2, height: 2, width: 3, channels: 8)
        let got = numbered(s.elementCount, outputCount: s.elementCount, elementSize: 4) { i, o in
            DepthSpace.depthToSpace(input: i, inputShape: s, blockSize: 2, elementSize: 4, output: o)
        }
        // output[b, h*2 + by, w*2 + bx, c] = input[b, h, w, (by*2 + bx)*2 + c]
        var want: [Int] = []
        for b in 0..<2 { for y in 0..<4 { for x in 0..<6 { for c in 0..<2 {
            want.append(flatten([b, y / 2, x / 2, ((y % 2) * 2 + x % 2) * 2 + c], [2, 2, 3, 8]))
        } } } }
        #expect(got == want)
        let back = TestBuffer(got.map { Int32($0) }), restored = TestBuffer(repeating: Int32(-1), count: got.count)
        DepthSpace.spaceToDepth(input: back.raw, inputShape: NHWC(batch: 2, height: 4, width: 6, channels: 2), blockSize: 2,
                                elementSize: 4, output: restored.mutableRaw)
        #expect(restored.array == (0..<Int32(got.count)).map { $0 })
    }

    @Test func concatenationSplitPackUnpack() {
        // Concatenate [2, 1, 3], [2, 2, 3], [2, 0, 3] along axis 1, then split back.
        let shapes = [[2, 1, 3], [2, 2, 3], [2, 0, 3]]
        let a = TestBuffer<Int32>((0..<6).map { 100 + $0 }), b = TestBuffer<Int32>((0..<12).map { 200 + $0 }), c = TestBuffer<Int32>([])
        let out = TestBuffer(repeating: Int32(0), count: 18)
        [a.raw, b.raw, c.raw].withUnsafeBufferPointer {
            Concatenation.apply(inputs: $0, inputShapes: shapes, axis: 1, elementSize: 4, output: out.mutableRaw)
        }
        var want: [Int32] = []
        for o in 0..<2 { want += (0..<3).map { 100 + Int32(o * 3 + $0) }; want += (0..<6).map { 200 + Int32(o * 6 + $0) } }
        #expect(out.array == want)
        let a2 = TestBuffer(repeating: Int32(0), count: 6), b2 = TestBuffer(repeating: Int32(0), count: 12), c2 = TestBuffer(repeating: Int32(0), count: 0)
        [a2.mutableRaw, b2.mutableRaw, c2.mutableRaw].withUnsafeBufferPointer {
            Split.apply(input: out.raw, inputShape: [2, 3, 3], axis: 1, sizes: [1, 2, 0], elementSize: 4, outputs: $0)
        }
        #expect(a2.array == a.array && b2.array == b.array)

        // PACK two [2, 3] tensors on axis 1 -> [2, 2, 3]; UNPACK along axis 1 restores them.
        let p = TestBuffer(repeating: Int32(0), count: 12)
        let x = TestBuffer<Int32>((0..<6).map { $0 }), y = TestBuffer<Int32>((0..<6).map { 10 + $0 })
        [x.raw, y.raw].withUnsafeBufferPointer {
            Concatenation.pack(inputs: $0, inputShape: [2, 3], axis: 1, elementSize: 4, output: p.mutableRaw)
        }
        #expect(p.array == [0, 1, 2, 10, 11, 12, 3, 4, 5, 13, 14, 15])
        let u0 = TestBuffer(repeating: Int32(0), count: 6), u1 = TestBuffer(repeating: Int32(0), count: 6)
        [u0.mutableRaw, u1.mutableRaw].withUnsafeBufferPointer {
            Split.unpack(input: p.raw, inputShape: [2, 2, 3], axis: 1, elementSize: 4, outputs: $0)
        }
        #expect(u0.array == x.array && u1.array == y.array)
    }

    @Test func gatherWithBatchDims() throws {
        var rng = SplitMix64(seed: 81)
        for _ in 0..<20 {
            let rank = rng.int(1...4)
            let shape = (0..<rank).map { _ in rng.int(1...4) }
            let axis = rng.int(0...(rank - 1)), batchDims = rng.int(0...axis)
            let idxShape = Array(shape[..<batchDims]) + (0..<rng.int(0...2)).map { _ in rng.int(1...3) }
            let indices = (0..<Shape.elementCount(idxShape)).map { _ in Int64(rng.int(0...(shape[axis] - 1))) }
            let outShape = Gather.outputShape(inputShape: shape, indicesShape: idxShape, axis: axis, batchDims: batchDims)
            let idx = TestBuffer(indices)
            var thrown: (any Error)?
            let got = numbered(Shape.elementCount(shape), outputCount: Shape.elementCount(outShape), elementSize: 4) { i, o in
                do { try Gather.apply(input: i, inputShape: shape, indices: idx.constant, indicesShape: idxShape, axis: axis,
                                      batchDims: batchDims, elementSize: 4, output: o) } catch { thrown = error }
            }
            #expect(thrown == nil)
            // out[pre, coords, post] = in[pre, indices[batch, coords], post]
            let want = (0..<Shape.elementCount(outShape)).map { flat -> Int in
                let oi = unflatten(flat, outShape)
                let pre = Array(oi[..<axis]), coords = Array(oi[axis..<(axis + idxShape.count - batchDims)])
                let post = Array(oi[(axis + idxShape.count - batchDims)...])
                let which = Int(indices[flatten(Array(pre[..<batchDims]) + coords, idxShape)])
                return flatten(pre + [which] + post, shape)
            }
            #expect(got == want)
        }
    }

    @Test func gatherRejectsOutOfRangeIndices() {
        let input = TestBuffer<Float>([1, 2, 3]), out = TestBuffer(repeating: Float(0), count: 2)
        for bad: Int32 in [3, -1] {
            let idx = TestBuffer<Int32>([0, bad])
            #expect(throws: KernelError.indexOutOfRange(index: Int(bad), bound: 3, position: 1)) {
                try Gather.apply(input: input.raw, inputShape: [3], indices: idx.constant, indicesShape: [2], axis: 0,
                                 batchDims: 0, elementSize: 4, output: out.mutableRaw)
            }
        }
        let nd = TestBuffer<Int64>([0, 1, 1, 5])
        #expect(throws: KernelError.self) {
            try Gather.nd(params: input.raw, paramsShape: [3, 1], indices: nd.constant, indicesShape: [2, 2], elementSize: 4,
                          output: out.mutableRaw)
        }
    }

    @Test func gatherNDSelectsSlices() throws {
        // params [3, 2, 2]; indices [[2], [0]] pick whole [2, 2] slices; [[1, 1]] picks a row.
        let params = TestBuffer<Int32>((0..<12).map { $0 })
        let idx = TestBuffer<Int32>([2, 0]), out = TestBuffer(repeating: Int32(-1), count: 8)
        #expect(Gather.ndOutputShape(paramsShape: [3, 2, 2], indicesShape: [2, 1]) == [2, 2, 2])
        try Gather.nd(params: params.raw, paramsShape: [3, 2, 2], indices: idx.constant, indicesShape: [2, 1], elementSize: 4, output: out.mutableRaw)
        #expect(out.array == [8, 9, 10, 11, 0, 1, 2, 3])
        let idx2 = TestBuffer<Int32>([1, 1]), out2 = TestBuffer(repeating: Int32(-1), count: 2)
        try Gather.nd(params: params.raw, paramsShape: [3, 2, 2], indices: idx2.constant, indicesShape: [2], elementSize: 4, output: out2.mutableRaw)
        #expect(out2.array == [6, 7])
    }

    @Test(arguments: [1, 3, 4])
    func tileBroadcastReverse(elementSize: Int) {
        var rng = SplitMix64(seed: UInt64(90 + elementSize))
        for _ in 0..<15 {
            let rank = rng.int(1...5)
            let shape = (0..<rank).map { _ in rng.int(1...3) }
            let n = Shape.elementCount(shape)
            let mult = (0..<rank).map { _ in rng.int(0...3) }
            let tiled = zip(shape, mult).map { $0 * $1 }
            let t = numbered(n, outputCount: Shape.elementCount(tiled), elementSize: elementSize) { i, o in
                Tile.apply(input: i, inputShape: shape, multiples: mult, elementSize: elementSize, output: o)
            }
            let tWant = (0..<Shape.elementCount(tiled)).map { f in flatten(zip(unflatten(f, tiled), shape).map { $0 % $1 }, shape) }
            #expect(t == stored(tWant, elementSize: elementSize))

            let target = [rng.int(1...2)] + shape.map { $0 == 1 ? rng.int(1...3) : $0 }
            let squeezed = shape.map { _ in 1 }.enumerated().map { rng.int(0...1) == 0 ? $0.element : shape[$0.offset] }
            let bc = numbered(Shape.elementCount(squeezed), outputCount: Shape.elementCount(target), elementSize: elementSize) { i, o in
                Tile.broadcast(input: i, inputShape: squeezed, outputShape: target, elementSize: elementSize, output: o)
            }
            let bcWant = (0..<Shape.elementCount(target)).map { f -> Int in
                let oi = Array(unflatten(f, target).dropFirst())
                return flatten(zip(oi, squeezed).map { $1 == 1 ? 0 : $0 }, squeezed)
            }
            #expect(bc == stored(bcWant, elementSize: elementSize))

            let axes = (0..<rank).filter { _ in rng.int(0...1) == 0 }
            let r = numbered(n, outputCount: n, elementSize: elementSize) { i, o in
                Reverse.apply(input: i, shape: shape, axes: axes, elementSize: elementSize, output: o)
            }
            let rWant = (0..<n).map { f in
                let idx = unflatten(f, shape)
                return flatten(idx.indices.map { axes.contains($0) ? shape[$0] - 1 - idx[$0] : idx[$0] }, shape)
            }
            #expect(r == stored(rWant, elementSize: elementSize))
        }
    }

    @Test func constantAndMirrorPadding() {
        let input = TestBuffer<Float>([1, 2, 3]), value = TestBuffer<Float>([-9])
        let out = TestBuffer(repeating: Float.nan, count: 6)
        Pad.constant(input: input.raw, inputShape: [3], paddings: [PadAmount(before: 1, after: 2)], padValue: value.raw,
                     elementSize: 4, output: out.mutableRaw)
        #expect(out.array == [-9, 1, 2, 3, -9, -9])
        Pad.constant(input: input.raw, inputShape: [3], paddings: [PadAmount(before: 2, after: 1)], padValue: nil,
                     elementSize: 4, output: out.mutableRaw)
        #expect(out.array == [0, 0, 1, 2, 3, 0])
        let mirror = TestBuffer(repeating: Float.nan, count: 7)
        Pad.mirror(input: input.raw, inputShape: [3], paddings: [PadAmount(before: 2, after: 2)], mode: .reflect,
                   elementSize: 4, output: mirror.mutableRaw)
        #expect(mirror.array == [3, 2, 1, 2, 3, 2, 1])
        Pad.mirror(input: input.raw, inputShape: [3], paddings: [PadAmount(before: 2, after: 2)], mode: .symmetric,
                   elementSize: 4, output: mirror.mutableRaw)
        #expect(mirror.array == [2, 1, 1, 2, 3, 3, 2])
        // 2-D: [[1, 2], [3, 4]] padded one row above (zeros) and one column on the right.
        let m = TestBuffer<Int32>([1, 2, 3, 4]), padded = TestBuffer(repeating: Int32(-1), count: 9)
        Pad.constant(input: m.raw, inputShape: [2, 2], paddings: [PadAmount(before: 1, after: 0), PadAmount(before: 0, after: 1)],
                     padValue: nil, elementSize: 4, output: padded.mutableRaw)
        #expect(padded.array == [0, 0, 0, 1, 2, 0, 3, 4, 0])
    }

    @Test func spaceToBatchAndBack() {
        // TensorFlow's documented example: [[1, 2], [3, 4]] with a 2x2 block becomes four batches.
        let input = TestBuffer<Float>([1, 2, 3, 4]), out = TestBuffer(repeating: Float.nan, count: 4)
        SpaceBatch.spaceToBatch(input: input.raw, inputShape: NHWC(batch: 1, height: 2, width: 2, channels: 1), blockHeight: 2,
                                blockWidth: 2, padTop: 0, padLeft: 0, padValue: nil, elementSize: 4, output: out.mutableRaw,
                                outputShape: NHWC(batch: 4, height: 1, width: 1, channels: 1))
        #expect(out.array == [1, 2, 3, 4])
        // With padding and two channels, then back with matching crops.
        var rng = SplitMix64(seed: 99)
        let s = NHWC(batch: 2, height: 3, width: 5, channels: 2)
        let x = rng.floats(s.elementCount), xB = TestBuffer(x)
        let o = NHWC(batch: 2 * 2 * 3, height: (3 + 1) / 2, width: (5 + 1) / 3, channels: 2)
        let mid = TestBuffer(repeating: Float.nan, count: o.elementCount)
        SpaceBatch.spaceToBatch(input: xB.raw, inputShape: s, blockHeight: 2, blockWidth: 3, padTop: 1, padLeft: 1, padValue: nil,
                                elementSize: 4, output: mid.mutableRaw, outputShape: o)
        #expect(mid.array.filter { $0 == 0 }.count == (o.elementCount - s.elementCount))
        let back = TestBuffer(repeating: Float.nan, count: s.elementCount)
        SpaceBatch.batchToSpace(input: mid.raw, inputShape: o, blockHeight: 2, blockWidth: 3, cropTop: 1, cropLeft: 1,
                                elementSize: 4, output: back.mutableRaw, outputShape: s)
        #expect(back.array == x)
    }
}

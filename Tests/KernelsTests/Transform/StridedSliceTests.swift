import TestSupport
import Testing
import Kernels

/// Python's `slice(start, stop, step).indices(n)`, as documented, expanded to the index list.
func pythonSlice(_ start: Int?, _ stop: Int?, _ step: Int, _ n: Int) -> [Int] {
    func norm(_ v: Int?, _ fallback: Int) -> Int {
        guard var v else { return fallback }
        if v < 0 { v += n; if v < 0 { v = step < 0 ? -1 : 0 } } else if v >= n { v = step < 0 ? n - 1 : n }
        return v
    }
    let b = norm(start, step > 0 ? 0 : n - 1), e = norm(stop, step > 0 ? n : -1)
    return Array(stride(from: b, to: e, by: step))
}

@Suite struct StridedSliceTests {
    /// Random begin/end/stride/mask combinations without ellipsis or new axes, against Python
    /// slicing per axis.
    @Test func randomSlicesMatchPythonSemantics() {
        var rng = SplitMix64(seed: 123)
        for _ in 0..<200 {
            let rank = rng.int(1...4)
            let shape = (0..<rank).map { _ in rng.int(0...5) }
            var begin: [Int] = [], end: [Int] = [], strides: [Int] = [], bm: Int32 = 0, em: Int32 = 0
            var lists: [[Int]] = []
            for d in 0..<rank {
                let b = rng.int(-7...7), e = rng.int(-7...7)
                var s = rng.int(-3...3); if s == 0 { s = 1 }
                let maskB = rng.int(0...3) == 0, maskE = rng.int(0...3) == 0
                begin.append(b); end.append(e); strides.append(s)
                if maskB { bm |= 1 << d }
                if maskE { em |= 1 << d }
                lists.append(pythonSlice(maskB ? nil : b, maskE ? nil : e, s, shape[d]))
            }
            let r = StridedSlice.resolve(inputShape: shape, begin: begin, end: end, strides: strides, beginMask: bm, endMask: em,
                                         ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0)!
            #expect(r.outputShape == lists.map { $0.count }, "\(shape) \(begin) \(end) \(strides)")
            let n = Shape.elementCount(r.outputShape)
            let got = numbered(Shape.elementCount(shape), outputCount: n, elementSize: 4) { i, o in
                StridedSlice.apply(input: i, inputShape: shape, resolved: r, elementSize: 4, output: o)
            }
            let want = (0..<n).map { f in flatten(unflatten(f, r.outputShape).enumerated().map { lists[$0.offset][$0.element] }, shape) }
            #expect(got == want)
        }
    }

    /// x[..., 1] on [2, 3, 4]: the ellipsis keeps the leading axes, the shrink drops the last.
    @Test func ellipsisAndShrink() {
        let r = StridedSlice.resolve(inputShape: [2, 3, 4], begin: [0, 1], end: [0, 2], strides: [1, 1], beginMask: 0, endMask: 0,
                                     ellipsisMask: 1, newAxisMask: 0, shrinkAxisMask: 2)!
        #expect(r.outputShape == [2, 3])
        let got = numbered(24, outputCount: 6, elementSize: 4) { i, o in
            StridedSlice.apply(input: i, inputShape: [2, 3, 4], resolved: r, elementSize: 4, output: o)
        }
        #expect(got == [1, 5, 9, 13, 17, 21])
    }

    /// x[None, ::-1, 2:] on [3, 4]: a new leading axis, a reversed axis, a trailing cut.
    @Test func newAxisAndNegativeStride() {
        let r = StridedSlice.resolve(inputShape: [3, 4], begin: [0, 0, 2], end: [0, 0, 0], strides: [1, -1, 1], beginMask: 2,
                                     endMask: 6, ellipsisMask: 0, newAxisMask: 1, shrinkAxisMask: 0)!
        #expect(r.outputShape == [1, 3, 2])
        let got = numbered(12, outputCount: 6, elementSize: 4) { i, o in
            StridedSlice.apply(input: i, inputShape: [3, 4], resolved: r, elementSize: 4, output: o)
        }
        #expect(got == [10, 11, 6, 7, 2, 3])
    }

    @Test func offsetMakesEndRelative() {
        // begin 1, end 2 with offset: elements 1 and 2.
        let r = StridedSlice.resolve(inputShape: [5], begin: [1], end: [2], strides: [1], beginMask: 0, endMask: 0,
                                     ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0, offset: true)!
        #expect(r.outputShape == [2] && r.start == [1])
    }

    @Test func invalidSpecificationsAreRejected() {
        #expect(StridedSlice.resolve(inputShape: [3], begin: [0], end: [3], strides: [0], beginMask: 0, endMask: 0,
                                     ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0) == nil)
        #expect(StridedSlice.resolve(inputShape: [3], begin: [5], end: [6], strides: [1], beginMask: 0, endMask: 0,
                                     ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 1) == nil)
        #expect(StridedSlice.resolve(inputShape: [3], begin: [0, 0], end: [1, 1], strides: [1, 1], beginMask: 0, endMask: 0,
                                     ellipsisMask: 0, newAxisMask: 0, shrinkAxisMask: 0) == nil)
    }

    @Test func sliceTakesABox() {
        let got = numbered(24, outputCount: 4, elementSize: 2) { i, o in
            StridedSlice.slice(input: i, inputShape: [2, 3, 4], begin: [1, 1, 2], size: [1, 2, 2], elementSize: 2, output: o)
        }
        #expect(got == [18, 19, 22, 23])
    }
}

import TestSupport
import Testing
import Kernels

@Suite struct PadTests {
    /// Random ranks, extents and paddings (including zero) for constant and mirror padding,
    /// against the per-index definitions. Every other trial has a long innermost axis and
    /// padding (a channel pad), so copies and fills of a row run from a few bytes to over 256
    /// (the inline and the `memcpy` paths).
    @Test(arguments: [1, 2, 4, 8])
    func randomPaddingMatchesDefinition(elementSize: Int) {
        var rng = SplitMix64(seed: UInt64(190 + elementSize))
        for trial in 0..<60 {
            let rank = rng.int(1...4)
            let long = trial % 2 == 1
            let shape = (0..<rank).map { d in long && d == rank - 1 ? rng.int(5...70) : rng.int(1...4) }
            let n = Shape.elementCount(shape)
            let constant = (0..<rank).map { d in
                long && d == rank - 1 ? PadAmount(before: rng.int(0...40), after: rng.int(0...40))
                                      : PadAmount(before: rng.int(0...3), after: rng.int(0...3))
            }
            let mode: MirrorPadMode = rng.int(0...1) == 0 ? .reflect : .symmetric
            // Reflection can reach extent - 1 elements past an edge, symmetric padding extent.
            let limit = { (d: Int) in mode == .reflect ? shape[d] - 1 : shape[d] }
            let mirror = (0..<rank).map { PadAmount(before: rng.int(0...limit($0)), after: rng.int(0...limit($0))) }
            let constShape = Pad.outputShape(inputShape: shape, paddings: constant)
            let mirrorShape = Pad.outputShape(inputShape: shape, paddings: mirror)
            // Pad with zero bytes, which `numbered` reads back as 0 for every element size.
            let padded = numbered(n, outputCount: Shape.elementCount(constShape), elementSize: elementSize) { i, o in
                Pad.constant(input: i, inputShape: shape, paddings: constant, padValue: nil, elementSize: elementSize, output: o)
            }
            let constWant = (0..<Shape.elementCount(constShape)).map { f -> Int in
                let idx = unflatten(f, constShape).enumerated().map { $0.element - constant[$0.offset].before }
                let inside = idx.enumerated().allSatisfy { $0.element >= 0 && $0.element < shape[$0.offset] }
                return inside ? flatten(idx, shape) : 0
            }
            #expect(padded == stored(constWant, elementSize: elementSize), "\(shape) \(constant)")
            let mirrored = numbered(n, outputCount: Shape.elementCount(mirrorShape), elementSize: elementSize) { i, o in
                Pad.mirror(input: i, inputShape: shape, paddings: mirror, mode: mode, elementSize: elementSize, output: o)
            }
            let mirrorWant = (0..<Shape.elementCount(mirrorShape)).map { f -> Int in
                let idx = unflatten(f, mirrorShape).enumerated().map { d, o -> Int in
                    let i = o - mirror[d].before, size = shape[d]
                    if i < 0 { return mode == .reflect ? -i : -i - 1 }
                    if i >= size { return mode == .reflect ? 2 * size - 2 - i : 2 * size - 1 - i }
                    return i
                }
                return flatten(idx, shape)
            }
            #expect(mirrored == stored(mirrorWant, elementSize: elementSize), "\(shape) \(mirror) \(mode)")
        }
    }
}

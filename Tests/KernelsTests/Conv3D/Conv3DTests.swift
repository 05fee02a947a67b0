import TestSupport
import Testing
import Kernels

@Suite struct Conv3DTests {
    static let none = ActivationRange<Float>(min: -.infinity, max: .infinity)

    @Test func pointwiseFilterIsAMatrixProductPerVoxel() throws {
        var rng = SplitMix64(seed: 3)
        let inShape = [2, 2, 3, 2, 3], filterShape = [1, 1, 1, 3, 4]
        let x = rng.floats(Shape.elementCount(inShape)), w = rng.floats(12), bias = rng.floats(4)
        let (params, spatial) = try #require(Conv3DParams.forward(padding: .valid, input: [2, 3, 2], filter: [1, 1, 1],
                                                                  strides: [1, 1, 1], dilations: [1, 1, 1], activation: Self.none))
        #expect(spatial == [2, 3, 2])
        let xb = TestBuffer(x), wb = TestBuffer(w), bb = TestBuffer(bias), out = TestBuffer(repeating: Float.nan, count: 2 * 12 * 4)
        Conv3D.forward(params, input: xb.constant, inputShape: inShape, filter: wb.constant, filterShape: filterShape,
                       bias: bb.constant, output: out.pointer, outputShape: [2, 2, 3, 2, 4])
        for voxel in 0..<24 {
            for o in 0..<4 {
                let want = bias[o] + (0..<3).reduce(Float(0)) { $0 + x[voxel * 3 + $1] * w[$1 * 4 + o] }
                #expect(abs(out.array[voxel * 4 + o] - want) <= 1e-5)
            }
        }
    }

    /// The transposed convolution is the adjoint of the convolution with the same geometry:
    /// <conv(x), y> = <x, convT(y)> for every x and y (no bias, no activation).
    @Test(arguments: [PaddingScheme.same, .valid])
    func transposeIsTheAdjointOfForward(padding: PaddingScheme) throws {
        var rng = SplitMix64(seed: 5)
        let spatialIn = [4, 5, 3], filter = [2, 3, 2], strides = [2, 1, 2], dilations = [1, 2, 1], cin = 2, cout = 3
        let (fwd, spatialOut) = try #require(Conv3DParams.forward(padding: padding, input: spatialIn, filter: filter, strides: strides,
                                                                  dilations: dilations, activation: Self.none))
        let back = try #require(Conv3DParams.transpose(padding: padding, input: spatialOut, output: spatialIn, filter: filter,
                                                       strides: strides, dilations: dilations, activation: Self.none))
        let inShape = [1] + spatialIn + [cin], outShape = [1] + spatialOut + [cout]
        let x = rng.floats(Shape.elementCount(inShape)), y = rng.floats(Shape.elementCount(outShape))
        // [fd, fh, fw, cin, cout]: for the transpose, whose output has cin channels, the same
        // tensor is its [fd, fh, fw, out, in] filter.
        let w = rng.floats(Shape.elementCount(filter) * cin * cout)
        let xb = TestBuffer(x), yb = TestBuffer(y), wb = TestBuffer(w)
        let convX = TestBuffer(repeating: Float.nan, count: y.count), convTY = TestBuffer(repeating: Float.nan, count: x.count)
        Conv3D.forward(fwd, input: xb.constant, inputShape: inShape, filter: wb.constant, filterShape: filter + [cin, cout],
                       bias: nil, output: convX.pointer, outputShape: outShape)
        Conv3D.transpose(back, input: yb.constant, inputShape: outShape, filter: wb.constant, filterShape: filter + [cin, cout],
                         bias: nil, output: convTY.pointer, outputShape: inShape)
        let lhs = zip(convX.array, y).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
        let rhs = zip(x, convTY.array).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
        #expect(abs(lhs - rhs) <= 1e-4 * max(1, abs(lhs)))
    }

    @Test func activationClampsAndValidWindowMustFit() throws {
        #expect(Conv3DParams.forward(padding: .valid, input: [2, 2, 2], filter: [3, 1, 1], strides: [1, 1, 1], dilations: [1, 1, 1],
                                     activation: Self.none) == nil)
        let relu6 = ActivationRange<Float>(min: 0, max: 6)
        let (p, _) = try #require(Conv3DParams.forward(padding: .valid, input: [1, 1, 2], filter: [1, 1, 1], strides: [1, 1, 1],
                                                       dilations: [1, 1, 1], activation: relu6))
        let x = TestBuffer<Float>([-3, 10]), w = TestBuffer<Float>([1]), out = TestBuffer(repeating: Float.nan, count: 2)
        Conv3D.forward(p, input: x.constant, inputShape: [1, 1, 1, 2, 1], filter: w.constant, filterShape: [1, 1, 1, 1, 1], bias: nil,
                       output: out.pointer, outputShape: [1, 1, 1, 2, 1])
        #expect(out.array == [0, 6])
    }
}

import Testing
import TFLiteRuntime

/// Small data-movement graphs checked against index formulas written out in the test.
@Suite struct DataMovementSemanticsTests {
    /// Runs a one-op float model on `values` (input 0) and returns output 0's shape and values.
    func run(_ model: SingleOpModel, _ values: [Float]) throws -> (shape: [Int], values: [Float]) {
        let interpreter = try model.interpreter()
        try interpreter.allocateTensors()
        try interpreter.copy(floatBytes(values), toInputAt: 0)
        try interpreter.invoke()
        let out = try interpreter.output(at: 0)
        return (out.shape, out.values(as: Float.self))
    }

    /// `0, 1, 2, ...` as floats.
    func iota(_ n: Int) -> [Float] { (0..<n).map(Float.init) }

    @Test func transposeMovesAxes() throws {
        let model = SingleOpModel(op: .transpose, operands: [.init(shape: [2, 3, 4]), .int32([2, 0, 1]), .init(shape: [1])],
                                  inputs: [0, 1], outputs: [2])
        let out = try run(model, iota(24))
        #expect(out.shape == [4, 2, 3])
        var expected: [Float] = []
        for k in 0..<4 { for i in 0..<2 { for j in 0..<3 { expected.append(Float(i * 12 + j * 4 + k)) } } }
        #expect(out.values == expected)
    }

    @Test func padSurroundsWithZeros() throws {
        let model = SingleOpModel(op: .pad, operands: [.init(shape: [2, 3]), .int32([1, 0, 2, 1], shape: [2, 2]), .init(shape: [1])],
                                  inputs: [0, 1], outputs: [2])
        let out = try run(model, iota(6).map { $0 + 1 })
        #expect(out.shape == [3, 6])
        var expected: [Float] = []
        for r in 0..<3 {
            for c in 0..<6 {
                let (i, j) = (r - 1, c - 2)
                expected.append(i >= 0 && i < 2 && j >= 0 && j < 3 ? Float(i * 3 + j + 1) : 0)
            }
        }
        #expect(out.values == expected)
    }

    @Test func mirrorPadReflects() throws {
        let model = SingleOpModel(op: .mirrorPad, options: .mirrorPadOptions(.init()),
                                  operands: [.init(shape: [4]), .int32([2, 3], shape: [1, 2]), .init(shape: [1])], inputs: [0, 1], outputs: [2])
        let out = try run(model, [10, 11, 12, 13])
        // Reflection about the edge element, which is not repeated: index -k maps to k.
        let expected: [Float] = (-2..<7).map { i in
            let r = i < 0 ? -i : (i > 3 ? 6 - i : i)
            return Float(10 + r)
        }
        #expect(out.values == expected)
    }

    @Test func stridedSliceWalksBackwards() throws {
        // begin 4, end -7 (wraps to -1) and stride -2 take indices 4, 2, 0.
        let model = SingleOpModel(op: .stridedSlice, options: .stridedSliceOptions(.init()),
                                  operands: [.init(shape: [6]), .int32([4]), .int32([-7]), .int32([-2]), .init(shape: [1])],
                                  inputs: [0, 1, 2, 3], outputs: [4])
        let out = try run(model, iota(6))
        #expect(out.shape == [3])
        #expect(out.values == stride(from: 4, through: 0, by: -2).map(Float.init))
    }

    @Test func sliceToTheEnd() throws {
        let model = SingleOpModel(op: .slice, operands: [.init(shape: [3, 4]), .int32([1, 1]), .int32([-1, 2]), .init(shape: [1])],
                                  inputs: [0, 1, 2], outputs: [3])
        let out = try run(model, iota(12))
        #expect(out.shape == [2, 2])
        #expect(out.values == [5, 6, 9, 10])
    }

    @Test func tileRepeats() throws {
        let model = SingleOpModel(op: .tile, operands: [.init(shape: [2, 2]), .int32([2, 3]), .init(shape: [1])], inputs: [0, 1], outputs: [2])
        let out = try run(model, [1, 2, 3, 4])
        #expect(out.shape == [4, 6])
        var expected: [Float] = []
        for r in 0..<4 { for c in 0..<6 { expected.append(Float((r % 2) * 2 + c % 2 + 1)) } }
        #expect(out.values == expected)
    }

    @Test func reverseBothAxes() throws {
        let model = SingleOpModel(op: .reverseV2, operands: [.init(shape: [2, 3]), .int32([-1, 0]), .init(shape: [1])], inputs: [0, 1], outputs: [2])
        let out = try run(model, iota(6))
        #expect(out.values == iota(6).reversed())
    }

    @Test func gatherRows() throws {
        let model = SingleOpModel(op: .gather, options: .gatherOptions(.init()),
                                  operands: [.init(shape: [3, 2]), .int32([2, 0, 2]), .init(shape: [1])], inputs: [0, 1], outputs: [2])
        let out = try run(model, iota(6))
        #expect(out.shape == [3, 2])
        #expect(out.values == [4, 5, 0, 1, 4, 5])
    }
}

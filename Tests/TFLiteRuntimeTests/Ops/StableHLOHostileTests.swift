import Testing
@testable import TFLiteRuntime

/// Hostile StableHLO nodes: bad dimension numbers, indices and sizes far out of range, region
/// subgraphs that are missing, recursive or unsupported, wrong arities and state shapes. Each
/// either throws an error that says what is wrong, or (where LiteRT defines the outcome, as
/// for clamped gather indices) runs to that outcome; none traps.
@Suite struct StableHLOHostileTests {
    typealias O = SingleOpModel.Operand
    typealias Region = HLONodeModel.Region

    /// The reason of the error `body` throws, or nil when it does not throw.
    static func reason(_ body: () throws -> Void) -> String? {
        do { try body() } catch let error as InterpreterError {
            switch error {
            case .invokeFailed(_, _, let r), .invalidNode(_, _, let r), .unsupportedOperator(_, _, let r): return r
            default: return "\(error)"
            }
        } catch { return "\(error)" }
        return nil
    }

    /// Whether building and allocating `model` throws with a reason containing `text`.
    static func rejects(_ model: HLONodeModel, _ text: String) -> Bool {
        guard let r = reason({ _ = try model.interpreter() }) else { return false }
        return r.contains(text)
    }

    // MARK: - Gather and scatter

    static func gather(_ o: Schema.StablehloGatherOptions, operand: [Int] = [4, 2], indices: [Int] = [3, 1], output: [Int] = [3, 2]) -> HLONodeModel {
        HLONodeModel(op: .stablehloGather, inputs: [.input(operand), .input(indices, .int64)], outputs: [.output(output)],
                     options2: .stablehloGatherOptions(o))
    }

    static let rows = Schema.StablehloGatherOptions(offsetDims: [1], collapsedSliceDims: [0], startIndexMap: [0], indexVectorDim: 1, sliceSizes: [1, 2])

    @Test func gatherClampsStartIndicesFarOutOfRange() throws {
        let it = try Self.gather(Self.rows).interpreter()
        try it.copy((0..<8).map(Float.init), toInputAt: 0)
        try it.copy([Int64.max, Int64.min, 2], toInputAt: 1)
        try it.invoke()
        // Rows 3, 0 and 2: a start is clamped so that its slice lies inside the operand.
        #expect(try it.output(at: 0).values(as: Float.self) == [6, 7, 0, 1, 4, 5])
    }

    @Test func gatherRejectsInconsistentDimensionNumbers() {
        var o = Self.rows
        o.sliceSizes = [1, 3]
        #expect(Self.rejects(Self.gather(o), "slice size 3 of axis 1 is outside 0...2"))
        o = Self.rows
        o.startIndexMap = [2]
        #expect(Self.rejects(Self.gather(o), "start_index_map [2] must be distinct axes below 2"))
        o = Self.rows
        o.collapsedSliceDims = [1]
        #expect(Self.rejects(Self.gather(o), "collapsed axis 1 must have slice size 1"))
        o = Self.rows
        o.offsetDims = []
        #expect(Self.rejects(Self.gather(o), "must name one output axis per uncollapsed operand axis"))
        o = Self.rows
        o.indexVectorDim = 3
        #expect(Self.rejects(Self.gather(o), "index_vector_dim 3 is outside 0...2"))
        o = Self.rows
        o.startIndexMap = [0, 1]
        #expect(Self.rejects(Self.gather(o), "one entry per index vector component (1)"))
        #expect(Self.rejects(HLONodeModel(op: .stablehloGather, inputs: [.input([4, 2]), .input([3, 1])], outputs: [.output([3, 2])],
                                          options2: .stablehloGatherOptions(Self.rows)), "indices have type FLOAT32"))
    }

    static func scatter(_ o: Schema.StablehloScatterOptions, updates: [Int] = [3, 2], body: Region = .binary(.stablehloAdd)) -> HLONodeModel {
        var options = o
        options.updateComputationSubgraphIndex = 1
        return HLONodeModel(op: .stablehloScatter, inputs: [.input([4, 2]), .input([3, 1], .int64), .input(updates)],
                            outputs: [.output([4, 2])], options2: .stablehloScatterOptions(options), regions: [body])
    }

    static let rowUpdates = Schema.StablehloScatterOptions(updateWindowDims: [1], insertedWindowDims: [0], scatterDimsToOperandDims: [0], indexVectorDim: 1)

    @Test func scatterSkipsTargetsOutsideTheOperand() throws {
        let it = try Self.scatter(Self.rowUpdates).interpreter()
        try it.copy([Float](repeating: 1, count: 8), toInputAt: 0)
        // Int64.max lies past the last row, Int64.min before the first: only row 2 is updated.
        try it.copy([Int64.max, Int64.min, 2], toInputAt: 1)
        try it.copy([Float](repeating: 10, count: 6), toInputAt: 2)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Float.self) == [1, 1, 1, 1, 11, 11, 1, 1])
    }

    @Test func scatterRejectsInconsistentShapesAndBodies() {
        #expect(Self.rejects(Self.scatter(Self.rowUpdates, updates: [2, 2]), "the updates' scatter axes [2] must match the indices' batch axes [3]"))
        var o = Self.rowUpdates
        o.insertedWindowDims = []
        #expect(Self.rejects(Self.scatter(o), "must together cover the operand's 2 axes"))
        o = Self.rowUpdates
        o.scatterDimsToOperandDims = [0, 1]
        #expect(Self.rejects(Self.scatter(o), "one entry per index vector component (1)"))
        o = Self.rowUpdates
        o.updateWindowDims = [1, 1]
        #expect(Self.rejects(Self.scatter(o), "update_window_dims [1, 1] must be distinct axes below 2"))
        #expect(Self.rejects(Self.scatter(Self.rowUpdates, body: .binary(.stablehloSubtract)), "runs STABLEHLO_SUBTRACT"))
        #expect(Self.rejects(Self.scatter(Self.rowUpdates, body: .binary(.add)), "runs ADD"))
        #expect(Self.rejects(Self.scatter(Self.rowUpdates, body: .binary(.stablehloAdd, .int32)), "works on INT32"))
    }

    // MARK: - Region subgraphs

    static func reduceWindow(body: Int32 = 1, regions: [Region] = [.binary(.stablehloAdd)], window: [Int64] = [2, 2],
                             strides: [Int64] = [], padding: [Int64] = []) -> HLONodeModel {
        HLONodeModel(op: .stablehloReduceWindow, inputs: [.input([3, 4]), .constant([], .float32, [Float(0)])], outputs: [.output([2, 3])],
                     options2: .stablehloReduceWindowOptions(Schema.StablehloReduceWindowOptions(
                         windowDimensions: window, windowStrides: strides, padding: padding, bodySubgraphIndex: body)),
                     regions: regions)
    }

    @Test func regionSubgraphsOutOfRangeOrRecursiveAreRejectedAtLoad() {
        for (body, text) in [(Int32(5), "out of range"), (-1, "out of range"), (0, "recursive")] {
            let bytes = Self.reduceWindow(body: body).tiny().bytes()
            #expect(Self.reason { _ = try Model(bytes: bytes) }?.contains(text) == true, "body \(body)")
        }
    }

    @Test func unsupportedRegionBodiesAreReported() {
        #expect(Self.rejects(Self.reduceWindow(regions: [.binary(.stablehloSubtract)]), "runs STABLEHLO_SUBTRACT"))
        #expect(Self.rejects(Self.reduceWindow(regions: [.binary(nil)]), "has no operator"))
        var twoOps = Region.binary(.stablehloAdd)
        twoOps.tensors.append(TinyModel.Tensor(shape: [], name: "s"))
        twoOps.operators = [(.stablehloAdd, [0, 1], [3]), (.stablehloMultiply, [3, 1], [2])]
        #expect(Self.rejects(Self.reduceWindow(regions: [twoOps]), "has 2 operators"))
        var constantOperand = Region.binary(.stablehloAdd)
        constantOperand.operators = [(.stablehloAdd, [0, 0], [2])]
        #expect(Self.rejects(Self.reduceWindow(regions: [constantOperand]), "must combine the body's two parameters"))
        var threeParameters = Region.binary(.stablehloAdd)
        threeParameters.inputs = [0, 1, 2]
        #expect(Self.rejects(Self.reduceWindow(regions: [threeParameters]), "takes 3 values and returns 1"))
    }

    @Test func reduceWindowRejectsBadWindows() {
        #expect(Self.rejects(Self.reduceWindow(strides: [1, 0]), "window_strides [1, 0] must lie in 1..."))
        #expect(Self.rejects(Self.reduceWindow(window: [2, Int64.max]), "window_dimensions [2, 9223372036854775807] must lie in 1..."))
        #expect(Self.rejects(Self.reduceWindow(window: [2]), "window_dimensions has 1 entries for rank 2"))
        #expect(Self.rejects(Self.reduceWindow(padding: [0, 0, 0]), "must hold a low and high amount"))
        #expect(Self.rejects(Self.reduceWindow(padding: [Int64.min, 0, 0, 0]), "must hold a low and high amount"))
        #expect(Self.rejects(Self.reduceWindow(padding: [0, 0, -9, 0]), "crops axis 1 (extent 4) below zero"))
        let window = { (w: O, f: Schema.ReduceWindowFunction) in
            HLONodeModel(op: .reduceWindow, inputs: [.input([3, 4]), .constant([], .float32, [Float(0)]), w,
                                                     .constant([2], .int64, [Int64(1), 1]), .constant([2], .int64, [Int64(1), 1])],
                         outputs: [.output([2, 3])], options2: .reduceWindowOptions(Schema.ReduceWindowOptions(reduceFunction: f)))
        }
        #expect(Self.rejects(window(.input([2], .int64), .add), "must be a constant int64 tensor"))
        #expect(Self.rejects(window(.constant([2], .int64, [Int64(2), 0]), .add), "window shape [2, 0] must lie in 1..."))
        #expect(Self.rejects(window(.constant([2], .int64, [Int64(2), 2]), .unsupported), "reduce_function UNSUPPORTED"))
    }

    // MARK: - CASE and COMPOSITE

    static func hloCase(index: O = .input([], .int32), branches: [Int32] = [1, 2], regions: [Region]? = nil) -> HLONodeModel {
        HLONodeModel(op: .stablehloCase, inputs: [index, .input([3])], outputs: [.output([3])],
                     options2: .stablehloCaseOptions(Schema.StablehloCaseOptions(branchSubgraphIndices: branches)),
                     regions: regions ?? [.unary(.stablehloAdd, shape: [3]), .unary(.stablehloMultiply, shape: [3])])
    }

    @Test func caseIndexOutOfRangeSelectsTheLastBranch() throws {
        let it = try Self.hloCase().interpreter()
        try it.copy([Float(1), 2, 3], toInputAt: 1)
        for (index, want) in [(Int32(0), [Float(2), 4, 6]), (1, [1, 4, 9]), (9, [1, 4, 9]), (Int32.min, [1, 4, 9])] {
            try it.copy([index], toInputAt: 0)
            try it.invoke()
            #expect(try it.output(at: 0).values(as: Float.self) == want, "index \(index)")
        }
    }

    @Test func caseRejectsBadIndicesAndBranches() {
        #expect(Self.rejects(Self.hloCase(index: .input([], .int64)), "the branch index must be one int32"))
        #expect(Self.rejects(Self.hloCase(index: .input([2], .int32)), "the branch index must be one int32"))
        #expect(Self.rejects(Self.hloCase(branches: []), "has no branches"))
        let twoParameters = Region(tensors: [TinyModel.Tensor(shape: [3]), TinyModel.Tensor(shape: [3])], inputs: [0, 1], outputs: [0], operators: [])
        #expect(Self.rejects(Self.hloCase(regions: [.unary(nil, shape: [3]), twoParameters]), "subgraph 2 takes 2 inputs, given 1"))
        #expect(Self.rejects(Self.hloCase(regions: [.unary(nil, shape: [3]), .unary(nil, shape: [3], .int32)]), "subgraph 2 input 0 has type INT32"))
        var twoResults = Region.unary(nil, shape: [3])
        twoResults.outputs = [0, 0]
        #expect(Self.rejects(Self.hloCase(regions: [.unary(nil, shape: [3]), twoResults]), "subgraph 2 returns 2 values"))
    }

    static func composite(inputs: [O], decomposition: Region, outputType: Schema.TensorType = .float32) -> HLONodeModel {
        HLONodeModel(op: .stablehloComposite, inputs: inputs, outputs: [.output([3], outputType)],
                     options2: .stableHLOCompositeOptions(Schema.StableHLOCompositeOptions(decompositionSubgraphIndex: 1)),
                     regions: [decomposition])
    }

    @Test func compositeDecompositionWithWrongArityIsRejected() throws {
        let square = Region.unary(.stablehloMultiply, shape: [3])
        let it = try Self.composite(inputs: [.input([3])], decomposition: square).interpreter()
        try it.copy([Float(1), -2, 3], toInputAt: 0)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Float.self) == [1, 4, 9])
        #expect(Self.rejects(Self.composite(inputs: [.input([3]), .input([3])], decomposition: square), "subgraph 1 takes 1 inputs, given 2"))
        #expect(Self.rejects(Self.composite(inputs: [], decomposition: square), "needs at least one input"))
        var twoResults = square
        twoResults.outputs = [1, 1]
        #expect(Self.rejects(Self.composite(inputs: [.input([3])], decomposition: twoResults), "returns 2 values, STABLEHLO_COMPOSITE has 1 outputs"))
        #expect(Self.rejects(Self.composite(inputs: [.input([3])], decomposition: square, outputType: .int32),
                             "subgraph 1 returns FLOAT32 as value 0, output 0 is declared INT32"))
    }

    // MARK: - Padding

    static func pad(low: [Int64], high: [Int64], interior: [Int64], shape: [Int] = [3, 2]) -> HLONodeModel {
        HLONodeModel(op: .stablehloPad, inputs: [.input(shape), .constant([], .float32, [Float(0)])], outputs: [.output([1, 1])],
                     options2: .stablehloPadOptions(Schema.StablehloPadOptions(edgePaddingLow: low, edgePaddingHigh: high, interiorPadding: interior)))
    }

    @Test func padAmountsThatOverflowOrCropTooMuchAreRejected() {
        #expect(Self.rejects(Self.pad(low: [Int64.max, 0], high: [0, 0], interior: [0, 0]), "must lie within ±2147483647"))
        #expect(Self.rejects(Self.pad(low: [0, 0], high: [0, Int64.min], interior: [0, 0]), "must lie within ±2147483647"))
        #expect(Self.rejects(Self.pad(low: [0, 0], high: [0, 0], interior: [-1, 0]), "interior non-negative"))
        #expect(Self.rejects(Self.pad(low: [-2, 0], high: [-2, 0], interior: [0, 0]), "crops axis 0 (extent 3) below zero"))
        #expect(Self.rejects(Self.pad(low: [0], high: [0], interior: [0]), "edge_padding_low has 1 entries for an operand of rank 2"))
        // Each extent fits, their product does not.
        let big = Int64(Int32.max)
        #expect(Self.rejects(Self.pad(low: [big, big, big], high: [big, big, big], interior: [0, 0, 0], shape: [1, 1, 1]), "overflows"))
        let huge = Self.pad(low: [0, 0], high: [0, 0], interior: [big, 0])
        #expect(Self.reason { _ = try huge.interpreter() }?.contains("over the limit") == true)
    }

    static func dilate(_ dilations: O) -> HLONodeModel {
        HLONodeModel(op: .dilate, inputs: [.input([2, 3]), dilations, .constant([], .float32, [Float(-1)])], outputs: [.output([1, 1])],
                     options2: .dilateOptions(Schema.DilateOptions()))
    }

    @Test func dilateRejectsBadDilations() throws {
        #expect(Self.rejects(Self.dilate(.constant([2], .int32, [Int32(2), 0])), "dilation 0 of axis 1 must be at least 1"))
        #expect(Self.rejects(Self.dilate(.constant([3], .int32, [Int32(1), 1, 1])), "dilations must be int32 of shape [2]"))
        let it = try Self.dilate(.input([2], .int32)).interpreter()
        try it.copy([Int32(2), 1], toInputAt: 1)
        try it.invoke()
        #expect(try it.output(at: 0).shape == [3, 3])
        try it.copy([Int32(-4), 1], toInputAt: 1)
        #expect(Self.reason { try it.invoke() }?.contains("dilation -4 of axis 0 must be at least 1") == true)
        try it.copy([Int32.max, Int32.max], toInputAt: 1)
        #expect(Self.reason { try it.invoke() }?.contains("over the limit") == true)
    }

    // MARK: - RNG_BIT_GENERATOR and elementwise

    static func rng(_ algorithm: Schema.RngAlgorithm, state: O, output: O = .output([4], .uint32)) -> HLONodeModel {
        HLONodeModel(op: .stablehloRngBitGenerator, inputs: [state], outputs: [.output(state.shape, .uint64), output],
                     options2: .stablehloRngBitGeneratorOptions(Schema.StablehloRngBitGeneratorOptions(algorithm: algorithm)))
    }

    @Test func rngStateOfTheWrongShapeOrTypeIsRejected() {
        #expect(Self.rejects(Self.rng(.threefry, state: .input([3], .uint64)), "THREEFRY takes a state of 2 uint64 values, has [3]"))
        #expect(Self.rejects(Self.rng(.philox, state: .input([4], .uint64)), "PHILOX takes a state of 2 or 3 uint64 values, has [4]"))
        #expect(Self.rejects(Self.rng(.default, state: .input([1], .uint64)), "DEFAULT takes a state of 2 or 3 uint64 values, has [1]"))
        #expect(Self.rejects(Self.rng(.philox, state: .input([2, 1], .uint64)), "the state must be a uint64 vector"))
        #expect(Self.rejects(Self.rng(.philox, state: .input([2], .int64)), "the state must be a uint64 vector"))
        #expect(Self.rejects(Self.rng(.philox, state: .input([2], .uint64), output: .output([4], .float32)), "output 1 must be int32, int64, uint32 or uint64"))
    }

    @Test func shiftLeftCountsOutsideTheWidthGiveZero() throws {
        let it = try SingleOpModel.interpreter(.stablehloShiftLeft, inputs: [.input([5], .int32), .input([5], .int32)], outputs: [.output([5], .int32)])
        try it.copy([Int32](repeating: 3, count: 5), toInputAt: 0)
        try it.copy([Int32(-1), 31, 32, Int32.max, 2], toInputAt: 1)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Int32.self) == [0, Int32.min, 0, 0, 12])
    }

    @Test func elementwiseOperandsMustAgree() {
        let r = Self.reason { _ = try SingleOpModel.interpreter(.stablehloAdd, inputs: [.input([2, 3]), .input([3])], outputs: [.output([2, 3])]) }
        #expect(r?.contains("operand shapes [2, 3] and [3] differ (StableHLO does not broadcast)") == true)
        let f = Self.reason { _ = try SingleOpModel.interpreter(.stablehloAnd, inputs: [.input([2]), .input([2])], outputs: [.output([2])]) }
        #expect(f?.contains("STABLEHLO_AND takes integers or bool") == true)
    }
}

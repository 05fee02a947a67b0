import Testing
import TFLiteRuntime

/// Hostile shapes and parameters for the data-movement, resize and normalisation ops: each
/// must be refused when tensors are allocated, with a message naming the problem.
///
/// The test models store every option at its schema default (the writer leaves option tables
/// empty), so the cases rely on default options or on no options table at all.
@Suite struct DataMovementPrepareTests {
    /// A case: a one-op model and a phrase the error must contain.
    struct Hostile: CustomStringConvertible, Sendable {
        let name: String
        let model: @Sendable () -> GlueOpModel
        let expected: String
        var description: String { name }
    }

    /// A float input of `shape`, the node's first operand.
    static func data(_ shape: [Int32]) -> GlueOpModel.Operand { .init(shape: shape) }

    static let cases: [Hostile] = [
        Hostile(name: "transpose repeats an axis", model: {
            GlueOpModel(op: .transpose, operands: [data([2, 3]), .int32([0, 0]), data([2, 3])], inputs: [0, 1], outputs: [2])
        }, expected: "is not a permutation"),
        Hostile(name: "transpose permutation too short", model: {
            GlueOpModel(op: .transpose, operands: [data([2, 3]), .int32([1]), data([3, 2])], inputs: [0, 1], outputs: [2])
        }, expected: "is not a permutation"),
        Hostile(name: "pad negative amount", model: {
            GlueOpModel(op: .pad, operands: [data([2, 3]), .int32([0, 0, -1, 2], shape: [2, 2]), data([2, 4])], inputs: [0, 1], outputs: [2])
        }, expected: "must not be negative"),
        Hostile(name: "pad paddings of the wrong rank", model: {
            GlueOpModel(op: .pad, operands: [data([2, 3]), .int32([1, 1], shape: [1, 2]), data([4, 3])], inputs: [0, 1], outputs: [2])
        }, expected: "must have shape [2, 2]"),
        Hostile(name: "pad overflowing extent", model: {
            GlueOpModel(op: .pad, operands: [data([2, 3]), .int32([0, Int32.max, 0, Int32.max], shape: [2, 2]), data([2, 3])], inputs: [0, 1], outputs: [2])
        }, expected: ""),
        Hostile(name: "pad int64 amounts past int32", model: {
            GlueOpModel(op: .pad, operands: [data([2, 3]), .int64([0, 0, Int64.max, Int64.max], shape: [2, 2]), data([2, 3])],
                        inputs: [0, 1], outputs: [2])
        }, expected: "are too large"),
        Hostile(name: "mirror pad wider than the axis", model: {
            GlueOpModel(op: .mirrorPad, options: .mirrorPadOptions(.init()),
                          operands: [data([2, 3]), .int32([0, 0, 3, 0], shape: [2, 2]), data([2, 6])], inputs: [0, 1], outputs: [2])
        }, expected: "too large for axis 1"),
        Hostile(name: "slice past the end", model: {
            GlueOpModel(op: .slice, operands: [data([2, 3]), .int32([1, 1]), .int32([1, 3]), data([1, 3])], inputs: [0, 1, 2], outputs: [3])
        }, expected: "exceeds axis 1"),
        Hostile(name: "slice negative begin", model: {
            GlueOpModel(op: .slice, operands: [data([2, 3]), .int32([-1, 0]), .int32([1, 3]), data([1, 3])], inputs: [0, 1, 2], outputs: [3])
        }, expected: "begin -1 out of range"),
        Hostile(name: "strided slice with a zero stride", model: {
            GlueOpModel(op: .stridedSlice, options: .stridedSliceOptions(.init()),
                          operands: [data([4]), .int32([0]), .int32([4]), .int32([0]), data([4])], inputs: [0, 1, 2, 3], outputs: [4])
        }, expected: "do not describe a slice"),
        Hostile(name: "strided slice spec lengths differ", model: {
            GlueOpModel(op: .stridedSlice, options: .stridedSliceOptions(.init()),
                          operands: [data([4, 2]), .int32([0, 0]), .int32([4]), .int32([1, 1]), data([4, 2])], inputs: [0, 1, 2, 3], outputs: [4])
        }, expected: "vectors of one length"),
        Hostile(name: "split axis out of range", model: {
            GlueOpModel(op: .split,
                          operands: [.int32([5], shape: []), data([2, 4]), data([2, 2]), data([2, 2])], inputs: [0, 1], outputs: [2, 3])
        }, expected: "axis 5 out of range for rank 2"),
        Hostile(name: "split into unequal parts", model: {
            GlueOpModel(op: .split,
                          operands: [.int32([1], shape: []), data([2, 3]), data([2, 1]), data([2, 1])], inputs: [0, 1], outputs: [2, 3])
        }, expected: "does not split into 2 equal parts"),
        Hostile(name: "split_v sizes do not sum", model: {
            GlueOpModel(op: .splitV,
                          operands: [data([2, 5]), .int32([1, 2]), .int32([1], shape: []), data([2, 1]), data([2, 2])],
                          inputs: [0, 1, 2], outputs: [3, 4])
        }, expected: "do not sum to the extent 5"),
        Hostile(name: "concatenation off-axis mismatch", model: {
            GlueOpModel(op: .concatenation, options: .concatenationOptions(.init()),
                          operands: [data([2, 3]), data([2, 4]), data([4, 3])], inputs: [0, 1], outputs: [2])
        }, expected: "does not match input 0's"),
        Hostile(name: "concatenation of scalars", model: {
            GlueOpModel(op: .concatenation, options: .concatenationOptions(.init()),
                          operands: [data([]), data([]), data([2])], inputs: [0, 1], outputs: [2])
        }, expected: "rank at least 1"),
        Hostile(name: "pack values_count differs from the inputs", model: {
            GlueOpModel(op: .pack, options: .packOptions(.init()),
                          operands: [data([2]), data([2]), data([2, 2])], inputs: [0, 1], outputs: [2])
        }, expected: "values_count 0 differs"),
        Hostile(name: "unpack count mismatch", model: {
            GlueOpModel(op: .unpack, options: .unpackOptions(.init()),
                          operands: [data([2, 3]), data([3]), data([3])], inputs: [0], outputs: [1, 2])
        }, expected: "must equal the extent"),
        Hostile(name: "gather from a scalar", model: {
            GlueOpModel(op: .gather, options: .gatherOptions(.init()),
                          operands: [data([]), .int32([0]), data([1])], inputs: [0, 1], outputs: [2])
        }, expected: "axis 0 out of range for rank 0"),
        Hostile(name: "int4 gather of an odd count of values after the axis", model: {
            GlueOpModel(op: .gather, options: .gatherOptions(.init()),
                        operands: [.init(shape: [5, 3], type: .int4, constant: [UInt8](repeating: 0x21, count: 8), scale: 0.25),
                                   .int32([1]), .init(shape: [1, 3], type: .int4, scale: 0.25)], inputs: [0, 1], outputs: [2])
        }, expected: "3 values after axis 0"),
        Hostile(name: "gather with float indices", model: {
            GlueOpModel(op: .gather, options: .gatherOptions(.init()),
                          operands: [data([2, 3]), data([1]), data([1, 3])], inputs: [0, 1], outputs: [2])
        }, expected: "indices must be int32 or int64"),
        Hostile(name: "gather_nd index deeper than params", model: {
            GlueOpModel(op: .gatherNd, operands: [data([2, 3]), .int32([0, 0, 0], shape: [1, 3]), data([1])], inputs: [0, 1], outputs: [2])
        }, expected: "exceeds the rank"),
        Hostile(name: "tile negative multiple", model: {
            GlueOpModel(op: .tile, operands: [data([2, 3]), .int32([1, -2]), data([2, 3])], inputs: [0, 1], outputs: [2])
        }, expected: "non-negative"),
        Hostile(name: "tile overflowing shape", model: {
            GlueOpModel(op: .tile, operands: [data([2, 3]), .int32([Int32.max, Int32.max]), data([2, 3])], inputs: [0, 1], outputs: [2])
        }, expected: ""),
        Hostile(name: "broadcast_to incompatible", model: {
            GlueOpModel(op: .broadcastTo, operands: [data([2, 3]), .int32([2, 4]), data([2, 4])], inputs: [0, 1], outputs: [2])
        }, expected: "cannot broadcast"),
        Hostile(name: "reverse axis out of range", model: {
            GlueOpModel(op: .reverseV2, operands: [data([2, 3]), .int32([2]), data([2, 3])], inputs: [0, 1], outputs: [2])
        }, expected: "axis 2 out of range"),
        Hostile(name: "depth_to_space zero block", model: {
            GlueOpModel(op: .depthToSpace, options: .depthToSpaceOptions(.init()),
                          operands: [data([1, 2, 2, 4]), data([1, 4, 4, 1])], inputs: [0], outputs: [1])
        }, expected: "block_size 0 must be positive"),
        Hostile(name: "space_to_depth rank 3", model: {
            GlueOpModel(op: .spaceToDepth, options: .spaceToDepthOptions(.init()),
                          operands: [data([2, 2, 4]), data([1, 1, 16])], inputs: [0], outputs: [1])
        }, expected: "must have rank 4"),
        Hostile(name: "space_to_batch block does not divide", model: {
            GlueOpModel(op: .spaceToBatchNd, operands: [data([1, 3, 4, 1]), .int32([2, 2]), .int32([0, 0, 0, 0], shape: [2, 2]), data([4, 1, 2, 1])],
                          inputs: [0, 1, 2], outputs: [3])
        }, expected: "not multiples of the block"),
        Hostile(name: "batch_to_space crops exceed", model: {
            GlueOpModel(op: .batchToSpaceNd, operands: [data([4, 1, 1, 1]), .int32([2, 2]), .int32([3, 0, 0, 0], shape: [2, 2]), data([1, 2, 2, 1])],
                          inputs: [0, 1, 2], outputs: [3])
        }, expected: "exceed the spatial extents"),
        Hostile(name: "resize to an empty size", model: {
            GlueOpModel(op: .resizeBilinear, options: .resizeBilinearOptions(.init()),
                          operands: [data([1, 2, 2, 1]), .int32([0, 4]), data([1, 4, 4, 1])], inputs: [0, 1], outputs: [2])
        }, expected: "two positive extents"),
        Hostile(name: "resize size of three values", model: {
            GlueOpModel(op: .resizeNearestNeighbor, options: .resizeNearestNeighborOptions(.init()),
                          operands: [data([1, 2, 2, 1]), .int32([4, 4, 1]), data([1, 4, 4, 1])], inputs: [0, 1], outputs: [2])
        }, expected: "two positive extents"),
        Hostile(name: "resize of a rank-3 input", model: {
            GlueOpModel(op: .resizeBilinear, operands: [data([2, 2, 1]), .int32([4, 4]), data([4, 4, 1])], inputs: [0, 1], outputs: [2])
        }, expected: "must have rank 4"),
        Hostile(name: "local response normalisation of rank 2", model: {
            GlueOpModel(op: .localResponseNormalization, options: .localResponseNormalizationOptions(.init()),
                          operands: [data([1, 4]), data([1, 4])], inputs: [0], outputs: [1])
        }, expected: "must have rank 4"),
        Hostile(name: "cast from a string", model: {
            GlueOpModel(op: .cast, operands: [.init(shape: [2], type: .string), data([2])], inputs: [0], outputs: [1])
        }, expected: "string tensor"),
        Hostile(name: "densify of a dense input", model: {
            GlueOpModel(op: .densify, operands: [.init(shape: [2], constant: floatBytes([1, 2])), data([2])], inputs: [0], outputs: [1])
        }, expected: "sparsity metadata"),
    ]

    @Test(arguments: cases)
    func refusedAtAllocation(_ c: Hostile) throws {
        let interpreter = try c.model().interpreter()
        do {
            try interpreter.allocateTensors()
            Issue.record("\(c.name): allocation succeeded")
        } catch {
            if case .memoryLimitExceeded = error { return }
            let reason = try #require(error.nodeReason, "\(c.name): unexpected error \(error)")
            #expect(c.expected.isEmpty || reason.contains(c.expected), "\(c.name): \(reason)")
        }
    }

    /// An index read at run time that lies outside the gathered axis fails the invocation.
    @Test(arguments: [Int32(3), -1, Int32.max])
    func gatherIndexOutOfRangeFailsInvoke(_ index: Int32) throws {
        let model = GlueOpModel(op: .gather, options: .gatherOptions(.init()),
                                  operands: [Self.data([3, 2]), .init(shape: [2], type: .int32), Self.data([2, 2])], inputs: [0, 1], outputs: [2])
        let interpreter = try model.interpreter()
        try interpreter.allocateTensors()
        try interpreter.copy(floatBytes([1, 2, 3, 4, 5, 6]), toInputAt: 0)
        try interpreter.copy(littleEndianBytes(Int32(0)) + littleEndianBytes(index), toInputAt: 1)
        #expect {
            try interpreter.invoke()
        } throws: { error in
            guard case .invokeFailed(_, "GATHER", let reason)? = error as? InterpreterError else { return false }
            return reason.contains("index \(index)")
        }
    }

    /// GATHER_ND indices are checked per coordinate at run time too.
    @Test func gatherNDIndexOutOfRangeFailsInvoke() throws {
        let model = GlueOpModel(op: .gatherNd, operands: [Self.data([2, 3]), .init(shape: [1, 2], type: .int32), Self.data([1])],
                                  inputs: [0, 1], outputs: [2])
        let interpreter = try model.interpreter()
        try interpreter.allocateTensors()
        try interpreter.copy(floatBytes([1, 2, 3, 4, 5, 6]), toInputAt: 0)
        try interpreter.copy(littleEndianBytes(Int32(1)) + littleEndianBytes(Int32(3)), toInputAt: 1)
        #expect(throws: InterpreterError.self) { try interpreter.invoke() }
    }
}

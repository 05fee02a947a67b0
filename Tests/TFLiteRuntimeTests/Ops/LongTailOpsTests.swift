import Testing
@testable import TFLiteRuntime

/// The glue of the long-tail ops, through single-op models: shapes decided at prepare or at
/// run time, and bad values reported as errors naming the node.
@Suite struct LongTailOpsTests {
    typealias O = SingleOpModel.Operand

    /// The reason of an `invokeFailed` or `invalidNode` error, or nil for other outcomes.
    static func reason(_ body: () throws -> Void) -> String? {
        do { try body() } catch let error as InterpreterError {
            switch error {
            case .invokeFailed(_, _, let r), .invalidNode(_, _, let r), .unsupportedOperator(_, _, let r): return r
            default: return "\(error)"
            }
        } catch { return "\(error)" }
        return nil
    }

    @Test func embeddingLookupRejectsAnIdPastTheTable() throws {
        let table = (0..<8).map(Float.init)
        let it = try SingleOpModel.interpreter(.embeddingLookup, inputs: [.input([3], .int32), .constant([4, 2], .float32, table)],
                                               outputs: [.output([3, 2])])
        try it.copy([Int32(3), 0, 2], toInputAt: 0)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Float.self) == [6, 7, 0, 1, 4, 5])
        try it.copy([Int32(1), 4, 0], toInputAt: 0)
        let r = Self.reason { try it.invoke() }
        #expect(r == "index 4 at position 1 is outside 0..<4")
    }

    @Test func constantIdsAreCheckedAtPrepare() {
        let r = Self.reason {
            _ = try SingleOpModel.interpreter(.unsortedSegmentSum, inputs: [.input([3, 2]), .constant([3], .int32, [Int32(0), 5, 1]),
                                                                           .constant([], .int32, [Int32(3)])],
                                              outputs: [.output([3, 2])])
        }
        #expect(r?.contains("segment id 5 at position 1 is not below num_segments 3") == true)
    }

    @Test func segmentSumSizesItsOutputFromRunTimeIds() throws {
        let it = try SingleOpModel.interpreter(.segmentSum, inputs: [.input([4, 2]), .input([4], .int32)], outputs: [.output([1, 2])])
        try it.copy((1...8).map(Float.init), toInputAt: 0)
        try it.copy([Int32(0), 0, 2, 2], toInputAt: 1)
        try it.invoke()
        let out = try it.output(at: 0)
        #expect(out.shape == [3, 2])
        let want: [Float] = [4, 6, 0, 0, 12, 14] // rows 0+1, an empty segment 1, rows 2+3
        #expect(out.values(as: Float.self) == want)
        try it.copy([Int32(1), 0, 2, 2], toInputAt: 1)
        #expect(Self.reason { try it.invoke() }?.contains("id 0 at position 1 follows 1") == true)
    }

    @Test func whereResizesItsOutputEachInvocation() throws {
        let it = try SingleOpModel.interpreter(.where, inputs: [.input([2, 3], .bool)], outputs: [.output([1, 2], .int64)])
        try it.copy([true, false, true, false, false, true], toInputAt: 0)
        try it.invoke()
        #expect(try it.output(at: 0).shape == [3, 2])
        #expect(try it.output(at: 0).values(as: Int64.self) == [0, 0, 0, 2, 1, 2])
        try it.copy([Bool](repeating: false, count: 6), toInputAt: 0)
        try it.invoke()
        #expect(try it.output(at: 0).shape == [0, 2])
    }

    @Test func rangeWithRunTimeBounds() throws {
        let it = try SingleOpModel.interpreter(.range, inputs: [.input([], .int32), .input([], .int32), .input([], .int32)],
                                               outputs: [.output([1], .int32)])
        for (s, l, d) in [(Int32(2), Int32(11), Int32(3)), (5, -1, -2), (4, 4, 1)] {
            try it.copy([s], toInputAt: 0)
            try it.copy([l], toInputAt: 1)
            try it.copy([d], toInputAt: 2)
            try it.invoke()
            #expect(try it.output(at: 0).values(as: Int32.self) == Array(stride(from: s, to: l, by: Int(d))))
        }
        try it.copy([Int32(0)], toInputAt: 2)
        #expect(Self.reason { try it.invoke() }?.contains("delta 0 is zero") == true)
    }

    @Test func fillWithRunTimeDimsAndNegativeDims() throws {
        let it = try SingleOpModel.interpreter(.fill, inputs: [.input([2], .int64), .input([], .int32)], outputs: [.output([1, 1], .int32)])
        try it.copy([Int64(2), 3], toInputAt: 0)
        try it.copy([Int32(-9)], toInputAt: 1)
        try it.invoke()
        #expect(try it.output(at: 0).shape == [2, 3])
        #expect(try it.output(at: 0).values(as: Int32.self) == [Int32](repeating: -9, count: 6))
        try it.copy([Int64(2), -3], toInputAt: 0)
        #expect(Self.reason { try it.invoke() }?.contains("negative") == true)
    }

    @Test func scatterNDRejectsAnOutOfRangeIndex() throws {
        let it = try SingleOpModel.interpreter(.scatterNd, inputs: [.input([2, 1], .int32), .input([2, 3]), .constant([2], .int32, [Int32(4), 3])],
                                               outputs: [.output([4, 3])])
        try it.copy([Int32(3), 1], toInputAt: 0)
        try it.copy((1...6).map(Float.init), toInputAt: 1)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Float.self) == [0, 0, 0, 4, 5, 6, 0, 0, 0, 1, 2, 3])
        try it.copy([Int32(-1), 1], toInputAt: 0)
        #expect(Self.reason { try it.invoke() } == "index -1 at position 0 is outside 0..<4")
    }

    /// SELECT_V2 broadcasts all three operands; shapes from rank 0 to 6.
    @Test(arguments: [([], [2, 1], [3]), ([1, 1, 1, 1, 1, 2], [], [2]), ([3, 1], [1, 4], []), ([2, 1, 2, 1, 2, 1], [1, 2, 1], [2, 1, 1])])
    func selectV2Broadcasts(condition: [Int], a: [Int], b: [Int]) throws {
        let it = try SingleOpModel.interpreter(.selectV2, inputs: [.input(condition, .bool), .input(a), .input(b)], outputs: [.output([1])])
        let nc = condition.reduce(1, *), na = a.reduce(1, *), nb = b.reduce(1, *)
        let cv = (0..<nc).map { $0 % 3 != 1 }, av = (0..<na).map { Float($0) + 1 }, bv = (0..<nb).map { -Float($0) - 1 }
        try it.copy(cv, toInputAt: 0)
        try it.copy(av, toInputAt: 1)
        try it.copy(bv, toInputAt: 2)
        try it.invoke()
        let out = try it.output(at: 0)
        let shape = [condition, a, b].reduce([Int]()) { acc, s in
            let r = max(acc.count, s.count)
            return (0..<r).map { i -> Int in
                let x = i < r - acc.count ? 1 : acc[i - (r - acc.count)], y = i < r - s.count ? 1 : s[i - (r - s.count)]
                return max(x, y)
            }
        }
        #expect(out.shape == shape)
        // Each output element reads each operand at its coordinate modulo the operand's extent.
        func at(_ values: [Float], _ s: [Int], _ coordinate: [Int]) -> Float {
            let ext = [Int](repeating: 1, count: shape.count - s.count) + s
            var flat = 0
            for d in 0..<shape.count { flat = flat * ext[d] + coordinate[d] % ext[d] }
            return values[flat]
        }
        var want: [Float] = []
        for flat in 0..<shape.reduce(1, *) {
            var rest = flat, coordinate = [Int](repeating: 0, count: shape.count)
            for d in stride(from: shape.count - 1, through: 0, by: -1) { coordinate[d] = rest % shape[d]; rest /= shape[d] }
            let c = at(cv.map { $0 ? 1 : 0 }, condition, coordinate) != 0
            want.append(c ? at(av, a, coordinate) : at(bv, b, coordinate))
        }
        #expect(out.values(as: Float.self) == want)
    }

    @Test func mismatchedShapesAreRejectedAtPrepare() {
        #expect(Self.reason {
            _ = try SingleOpModel.interpreter(.addN, inputs: [.input([2, 3]), .input([3, 2])], outputs: [.output([2, 3])])
        }?.contains("input 1 is FLOAT32 [3, 2]") == true)
        #expect(Self.reason {
            _ = try SingleOpModel.interpreter(.select, inputs: [.input([2], .bool), .input([3, 2]), .input([3, 2])], outputs: [.output([3, 2])])
        }?.contains("do not match") == true)
        #expect(Self.reason {
            _ = try SingleOpModel.interpreter(.topkV2, inputs: [.input([2, 3]), .constant([], .int32, [Int32(4)])],
                                              outputs: [.output([2, 4]), .output([2, 4], .int32)])
        }?.contains("k = 4 is outside 0...3") == true)
        #expect(Self.reason {
            _ = try SingleOpModel.interpreter(.cumsum, inputs: [.input([2, 3]), .constant([], .int32, [Int32(-3)])], outputs: [.output([2, 3])])
        }?.contains("axis -3 is out of range for rank 2") == true)
    }

    @Test func negativeAxisAndEmptyTensors() throws {
        let it = try SingleOpModel.interpreter(.cumsum, inputs: [.input([2, 3]), .constant([], .int32, [Int32(-1)])], outputs: [.output([2, 3])])
        try it.copy([Float(1), 2, 3, 4, 5, 6], toInputAt: 0)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Float.self) == [1, 3, 6, 4, 9, 15])
        let empty = try SingleOpModel.interpreter(.addN, inputs: [.input([0, 3]), .input([0, 3])], outputs: [.output([0, 3])])
        try empty.invoke()
        #expect(try empty.output(at: 0).shape == [0, 3])
        let diag = try SingleOpModel.interpreter(.matrixDiag, inputs: [.input([2, 0])], outputs: [.output([2, 0, 0])])
        try diag.invoke()
        #expect(try diag.output(at: 0).shape == [2, 0, 0])
    }

    @Test func broadcastArgsAndShape() throws {
        let it = try SingleOpModel.interpreter(.broadcastArgs, inputs: [.input([2], .int32), .input([3], .int32)], outputs: [.output([3], .int32)])
        try it.copy([Int32(4), 1], toInputAt: 0)
        try it.copy([Int32(2), 1, 5], toInputAt: 1)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Int32.self) == [2, 4, 5])
        try it.copy([Int32(4), 3], toInputAt: 0)
        #expect(Self.reason { try it.invoke() }?.contains("do not broadcast") == true)
        let shape = try SingleOpModel.interpreter(.shape, inputs: [.input([3, 0, 5])], outputs: [.output([3], .int64)])
        try shape.invoke()
        #expect(try shape.output(at: 0).values(as: Int64.self) == [3, 0, 5])
    }

    @Test func zerosLikeKeepsShapeAndType() throws {
        let it = try SingleOpModel.interpreter(.zerosLike, inputs: [.input([2, 0, 3], .int64)], outputs: [.output([1], .int64)])
        try it.invoke()
        #expect(try it.output(at: 0).shape == [2, 0, 3])
        let f = try SingleOpModel.interpreter(.zerosLike, inputs: [.input([3])], outputs: [.output([3])])
        try f.copy([Float.nan, -1, .infinity], toInputAt: 0)
        try f.invoke()
        #expect(try f.output(at: 0).values(as: Float.self) == [0, 0, 0])
    }

    @Test func softNMSWithRunTimeMaxOutputs() throws {
        let it = try SingleOpModel.interpreter(
            .nonMaxSuppressionV5,
            inputs: [.input([3, 4]), .input([3]), .input([], .int32), .constant([], .float32, [Float(0.5)]),
                     .constant([], .float32, [Float(0)]), .constant([], .float32, [Float(0)])],
            outputs: [.output([1], .int32), .output([1]), .output([], .int32)])
        // Three disjoint unit boxes, so nothing is suppressed: selection is by score.
        try it.copy([Float(0), 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5], toInputAt: 0)
        try it.copy([Float(0.2), 0.9, 0.5], toInputAt: 1)
        try it.copy([Int32(2)], toInputAt: 2)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Int32.self) == [1, 2])
        #expect(try it.output(at: 1).values(as: Float.self) == [0.9, 0.5])
        try it.copy([Int32(5)], toInputAt: 2)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Int32.self) == [1, 2, 0, 0, 0])
        #expect(try it.output(at: 2).values(as: Int32.self) == [3])
        try it.copy([Int32(-1)], toInputAt: 2)
        #expect(Self.reason { try it.invoke() }?.contains("max_output_size -1 is negative") == true)
    }

    @Test func nmsRejectsAnIoUThresholdAboveOne() throws {
        let it = try SingleOpModel.interpreter(
            .nonMaxSuppressionV4,
            inputs: [.input([2, 4]), .input([2]), .constant([], .int32, [Int32(2)]), .input([]), .constant([], .float32, [Float(0)])],
            outputs: [.output([2], .int32), .output([], .int32)])
        try it.copy([Float(0), 0, 1, 1, 0, 0, 1, 1], toInputAt: 0)
        try it.copy([Float(0.9), 0.8], toInputAt: 1)
        try it.copy([Float(0.5)], toInputAt: 2)
        try it.invoke()
        // Identical boxes: the second is suppressed.
        #expect(try it.output(at: 0).values(as: Int32.self) == [0, 0])
        #expect(try it.output(at: 1).values(as: Int32.self) == [1])
        try it.copy([Float(1.5)], toInputAt: 2)
        #expect(Self.reason { try it.invoke() }?.contains("iou_threshold 1.5 is outside [0, 1]") == true)
    }
}

/// Inputs that decide an output shape but arrive at run time (model inputs here).
@Suite struct LongTailRunTimeShapeTests {
    typealias O = SingleOpModel.Operand

    @Test func topKWithRunTimeK() throws {
        let it = try SingleOpModel.interpreter(.topkV2, inputs: [.input([2, 4]), .input([], .int32)],
                                               outputs: [.output([2, 1]), .output([2, 1], .int32)])
        try it.copy([Float(3), 1, 4, 1, 5, 9, 2, 6], toInputAt: 0)
        try it.copy([Int32(2)], toInputAt: 1)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Float.self) == [4, 3, 9, 6])
        #expect(try it.output(at: 1).values(as: Int32.self) == [2, 0, 1, 3])
        try it.copy([Int32(5)], toInputAt: 1)
        #expect(LongTailOpsTests.reason { try it.invoke() }?.contains("k = 5 is outside 0...4") == true)
    }

    @Test func oneHotWithRunTimeDepth() throws {
        let it = try SingleOpModel.interpreter(.oneHot, inputs: [.input([3], .int64), .input([], .int32), .constant([], .int32, [Int32(1)]),
                                                                 .constant([], .int32, [Int32(0)])],
                                               outputs: [.output([3, 1], .int32)])
        try it.copy([Int64(2), -1, 0], toInputAt: 0)
        try it.copy([Int32(3)], toInputAt: 1)
        try it.invoke()
        #expect(try it.output(at: 0).shape == [3, 3])
        #expect(try it.output(at: 0).values(as: Int32.self) == [0, 0, 1, 0, 0, 0, 1, 0, 0])
    }

    @Test func unsortedSegmentMaxWithRunTimeCount() throws {
        let it = try SingleOpModel.interpreter(.unsortedSegmentMax, inputs: [.input([4], .int32), .input([4], .int32), .input([], .int32)],
                                               outputs: [.output([1], .int32)])
        try it.copy([Int32(5), -2, 7, 1], toInputAt: 0)
        try it.copy([Int32(1), 1, -1, 3], toInputAt: 1)
        try it.copy([Int32(4)], toInputAt: 2)
        try it.invoke()
        // Segment 0 and 2 are empty (the type's lowest value); id -1 is skipped.
        #expect(try it.output(at: 0).values(as: Int32.self) == [.min, 5, .min, 1])
        try it.copy([Int32(3)], toInputAt: 2)
        #expect(LongTailOpsTests.reason { try it.invoke() } == "index 3 at position 3 is outside 0..<3")
    }

    @Test func scatterNDWithRunTimeShape() throws {
        let it = try SingleOpModel.interpreter(.scatterNd, inputs: [.input([1, 1], .int32), .input([1, 2], .int32), .input([2], .int32)],
                                               outputs: [.output([1, 1], .int32)])
        try it.copy([Int32(2)], toInputAt: 0)
        try it.copy([Int32(7), 8], toInputAt: 1)
        try it.copy([Int32(3), 2], toInputAt: 2)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Int32.self) == [0, 0, 0, 0, 7, 8])
        try it.copy([Int32(3), 4], toInputAt: 2)
        #expect(LongTailOpsTests.reason { try it.invoke() }?.contains("need [1, 4]") == true)
    }

    @Test func cumsumWithRunTimeAxis() throws {
        let it = try SingleOpModel.interpreter(.cumsum, inputs: [.input([2, 2]), .input([], .int32)], outputs: [.output([2, 2])])
        try it.copy([Float(1), 2, 3, 4], toInputAt: 0)
        try it.copy([Int32(0)], toInputAt: 1)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Float.self) == [1, 2, 4, 6])
        try it.copy([Int32(-1)], toInputAt: 1)
        try it.invoke()
        #expect(try it.output(at: 0).values(as: Float.self) == [1, 3, 3, 7])
        try it.copy([Int32(2)], toInputAt: 1)
        #expect(LongTailOpsTests.reason { try it.invoke() }?.contains("axis 2 is out of range") == true)
    }
}

import Foundation
import Testing
import Kernels
import TestSupport

/// DENSIFY of the corpus' sparse MediaPipe model (float16 weights, CSR innermost dimension)
/// against LiteRT's dense output, a block-sparse round trip, and malformed layouts.
@Suite struct DensifyQuantizedTests {
    struct Op: Decodable, CustomStringConvertible {
        struct Dim: Decodable { var format: Int; var dense_size: Int; var segments: [Int]; var indices: [Int] }
        var position: Int
        var shape: [Int]
        var traversal_order: [Int]
        var block_map: [Int]
        var dims: [Dim]
        var values: [UInt16]
        var dense: [UInt16]
        var description: String { "DENSIFY #\(position) \(shape)" }
        var layout: SparsityLayout {
            SparsityLayout(denseShape: shape, traversalOrder: traversal_order, blockMap: block_map,
                           dimensions: dims.map { $0.format == 0 ? .dense(size: $0.dense_size) : .compressed(segments: $0.segments, indices: $0.indices) })
        }
    }
    struct File: Decodable { var ops: [Op] }

    static let cases: [Op] = {
        let url = Fixtures.root.appendingPathComponent("Tests/Fixtures/kernels/face_detection_full_range_sparse__densify.json")
        return (try? JSONDecoder().decode(File.self, from: Data(contentsOf: url)).ops) ?? []
    }()

    @Test func fixturesArePresent() { #expect(Self.cases.count == 8) }

    @Test(arguments: cases)
    func matchesLiteRTExactly(_ op: Op) throws {
        var out = [UInt16](repeating: 0xFFFF, count: op.dense.count)
        try op.values.withUnsafeBufferPointer { v in
            try out.withUnsafeMutableBufferPointer { try densify(op.layout, values: v, zero: 0, output: $0) }
        }
        #expect(out == op.dense)
    }

    @Test func blockSparseRoundTrip() throws {
        // A 4x6 matrix in 2x3 blocks; blocks (0,1) and (1,0) are non-zero. Encoded here by hand:
        // traversal [row-block, column-block, row-in-block, column-in-block], the column-block
        // level compressed.
        var dense = [Int](repeating: 0, count: 24)
        for r in 0..<2 { for c in 3..<6 { dense[r * 6 + c] = 10 + r * 6 + c } }
        for r in 2..<4 { for c in 0..<3 { dense[r * 6 + c] = 10 + r * 6 + c } }
        var values = [Int]()
        for (br, bc) in [(0, 1), (1, 0)] { for r in 0..<2 { for c in 0..<3 { values.append(dense[(br * 2 + r) * 6 + bc * 3 + c]) } } }
        let layout = SparsityLayout(denseShape: [4, 6], traversalOrder: [0, 1, 2, 3], blockMap: [0, 1],
                                    dimensions: [.dense(size: 2), .compressed(segments: [0, 1, 2], indices: [1, 0]),
                                                 .dense(size: 2), .dense(size: 3)])
        var out = [Int](repeating: -1, count: 24)
        try values.withUnsafeBufferPointer { v in try out.withUnsafeMutableBufferPointer { try densify(layout, values: v, zero: 0, output: $0) } }
        #expect(out == dense)
    }

    @Test func malformedLayoutsAreRejected() {
        let good = SparsityLayout(denseShape: [2, 3], traversalOrder: [0, 1], blockMap: [],
                                  dimensions: [.dense(size: 2), .compressed(segments: [0, 1, 2], indices: [0, 2])])
        func attempt(_ layout: SparsityLayout, values: [Int]) -> DensifyError? {
            var out = [Int](repeating: 0, count: 6)
            do {
                try values.withUnsafeBufferPointer { v in try out.withUnsafeMutableBufferPointer { try densify(layout, values: v, zero: 0, output: $0) } }
                return nil
            } catch { return error as? DensifyError ?? .invalidLayout("\(error)") }
        }
        #expect(attempt(good, values: [1, 2]) == nil)
        #expect(attempt(good, values: [1]) != nil)                    // too few values
        #expect(attempt(good, values: [1, 2, 3]) != nil)              // too many values
        var badIndex = good
        badIndex.dimensions[1] = .compressed(segments: [0, 1, 2], indices: [0, 7])
        #expect(attempt(badIndex, values: [1, 2]) != nil)
        var badSegments = good
        badSegments.dimensions[1] = .compressed(segments: [0, 5, 2], indices: [0, 2])
        #expect(attempt(badSegments, values: [1, 2]) != nil)
        var hugeDense = good
        hugeDense.dimensions[0] = .dense(size: 1 << 40)
        #expect(attempt(hugeDense, values: [1, 2]) != nil)
        var badOrder = good
        badOrder.traversalOrder = [0, 0]
        #expect(attempt(badOrder, values: [1, 2]) != nil)
    }
}

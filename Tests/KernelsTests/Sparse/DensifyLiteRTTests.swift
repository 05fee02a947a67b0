import Foundation
import Testing
import Kernels
import TestSupport

/// DENSIFY of the corpus' sparse MediaPipe model (float16 weights, CSR innermost dimension)
/// against LiteRT's dense output, dumped per op into Tests/Fixtures/kernels (see its README).
@Suite struct DensifyLiteRTTests {
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
        var sparsity: SparsityParameters {
            SparsityParameters(traversalOrder: traversal_order, blockMap: block_map,
                               dimensions: dims.map { $0.format == 0 ? .dense(size: $0.dense_size) : .sparseCSR(segments: $0.segments, indices: $0.indices) })
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
        try op.values.withUnsafeBytes { v in
            try out.withUnsafeMutableBytes { o in
                try Densify.apply(values: v.baseAddress!, valueCount: op.values.count, elementSize: 2, denseShape: op.shape,
                                  sparsity: op.sparsity, output: o.baseAddress!)
            }
        }
        #expect(out == op.dense)
    }
}

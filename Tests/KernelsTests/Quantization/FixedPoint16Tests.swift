import Foundation
import Testing
import TestSupport
@testable import Kernels

/// The int16 fixed-point logistic and tanh of the integer LSTM against gemmlowp's own results
/// (Tests/Fixtures/kernels/gemmlowp_int16_logistic_tanh.csv).
@Suite struct FixedPoint16Tests {
    static func table() throws -> [[Int16]] {
        let text = try String(contentsOf: Fixtures.root.appendingPathComponent("Tests/Fixtures/kernels/gemmlowp_int16_logistic_tanh.csv"),
                              encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map { Int16($0)! } }
    }

    @Test func logisticMatchesGemmlowp() throws {
        let rows = try Self.table()
        #expect(rows.count > 1700)
        let wrong = rows.filter { fixedPointLogistic16($0[0], integerBits: 3) != $0[1] }
        #expect(wrong.isEmpty, "first: \(wrong.first.map { "input \($0[0]): \(fixedPointLogistic16($0[0], integerBits: 3)), gemmlowp \($0[1])" } ?? "")")
    }

    @Test(arguments: 0...6)
    func tanhMatchesGemmlowp(integerBits: Int) throws {
        let wrong = try Self.table().filter { fixedPointTanh16($0[0], integerBits: integerBits) != $0[2 + integerBits] }
        #expect(wrong.isEmpty, "first: \(wrong.first.map { "input \($0[0]): \(fixedPointTanh16($0[0], integerBits: integerBits)), gemmlowp \($0[2 + integerBits])" } ?? "")")
    }
}

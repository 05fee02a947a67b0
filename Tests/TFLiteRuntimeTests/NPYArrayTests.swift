import Testing
import TestSupport
@testable import TFLiteRuntime

@Suite struct NPYArrayTests {
    @Test func readsCorpusGoldenWrittenByNumPy() throws {
        let a = try NPYArray(contentsOf: Fixtures.corpusFile("cases/efficientnet_lite0__chelsea/in0.npy").path)
        #expect(a.dtype == .uInt8)
        #expect(a.shape == [1, 224, 224, 3])
        #expect(a.data.count == 224 * 224 * 3)
    }

    @Test(arguments: NPYArray.DType.allCases)
    func roundTripsEveryDType(_ dtype: NPYArray.DType) throws {
        let shape = [2, 3]
        let data = (0..<(6 * dtype.byteSize)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let a = try NPYArray(dtype: dtype, shape: shape, data: data)
        let b = try NPYArray(npyBytes: a.npyBytes())
        #expect(a == b)
        #expect((a.npyBytes().count - data.count) % 64 == 0, "data starts on a 64-byte boundary")
    }

    @Test func roundTripsScalarsAndVectors() throws {
        for shape in [[], [5], [0, 4]] {
            let count = shape.reduce(1, *)
            let a = try NPYArray([Float](repeating: 1.5, count: count), dtype: .float32, shape: shape)
            #expect(try NPYArray(npyBytes: a.npyBytes()) == a)
        }
    }

    @Test func rejectsBadFiles() throws {
        #expect(throws: NPYError.notNPY) { try NPYArray(npyBytes: Array("hello world!".utf8)) }
        let good = try NPYArray([Int32](repeating: 7, count: 4), dtype: .int32, shape: [4]).npyBytes()
        #expect(throws: NPYError.sizeMismatch(expected: 16, actual: 12)) { try NPYArray(npyBytes: Array(good.dropLast(4))) }
        var fortran = good
        let falseBytes = Array("False".utf8)
        let offset = (0..<fortran.count).first { Array(fortran[$0..<($0 + 5)]) == falseBytes }!
        fortran.replaceSubrange(offset..<(offset + 5), with: Array("True ".utf8))
        #expect(throws: NPYError.fortranOrder) { try NPYArray(npyBytes: fortran) }
        #expect(throws: NPYError.self) { try NPYArray(contentsOf: "/nonexistent/file.npy") }
    }
}

import Foundation
import Testing
import Imaging
import TFLiteRuntime
import TestSupport

/// One entry of `Tests/Fixtures/corpus/images/images.json`.
struct ImageCorpusEntry: Decodable, Sendable {
    struct Tolerance: Decodable, Sendable {
        var kind: String
        var value: Int?
    }

    var file: String
    var format: String
    var expect: String
    var npy: String?
    var width: Int?
    var height: Int?
    var channels: Int?
    var dtype: String?
    var tolerance: Tolerance?
    var exifOrientation: Int?
    var npyOriented: String?

    enum CodingKeys: String, CodingKey {
        case file, format, expect, npy, width, height, channels, dtype, tolerance
        case exifOrientation = "exif_orientation"
        case npyOriented = "npy_oriented"
    }

    /// Every entry, in file order.
    static let all: [ImageCorpusEntry] = {
        let url = Fixtures.corpusFile("images/images.json")
        guard let data = try? Data(contentsOf: url),
              let entries = try? JSONDecoder().decode([ImageCorpusEntry].self, from: data) else { return [] }
        return entries
    }()

    static func named(_ file: String) -> ImageCorpusEntry? { all.first { $0.file == file } }

    static var decodable: [String] { all.filter { $0.expect == "ok" }.map(\.file) }
    static var broken: [String] { all.filter { $0.expect == "error" }.map(\.file) }

    func bytes() throws -> [UInt8] { try Fixtures.corpusBytes("images/" + file) }
}

/// Expected pixels from an `.npy`, widened to Int for comparison.
struct ExpectedPixels {
    var shape: [Int]
    var values: [Int]
    var dtype: NPYArray.DType

    init(corpusImage name: String) throws {
        let array = try NPYArray(contentsOf: Fixtures.corpusFile("images/" + name).path)
        shape = array.shape
        dtype = array.dtype
        switch array.dtype {
        case .uInt8: values = array.values(as: UInt8.self).map(Int.init)
        case .uInt16: values = array.values(as: UInt16.self).map(Int.init)
        default: throw CocoaError(.fileReadCorruptFile)
        }
    }
}

extension Image {
    /// The samples widened to Int.
    var intSamples: [Int] {
        switch samples {
        case .uInt8(let s): return s.map(Int.init)
        case .uInt16(let s): return s.map(Int.init)
        }
    }

    /// Largest absolute per-sample difference from `values` (same count assumed).
    func maxAbsDifference(_ values: [Int]) -> Int {
        zip(intSamples, values).reduce(0) { max($0, abs($1.0 - $1.1)) }
    }
}

/// Compares two large arrays by counting mismatches (a plain `#expect(a == b)` would try to
/// print a diff of the whole arrays).
func expectEqualArrays<T: Equatable & BinaryInteger>(_ got: [T], _ want: [T], _ what: String = "",
                                                     sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(got.count == want.count, "\(what) count \(got.count) != \(want.count)", sourceLocation: sourceLocation)
    var mismatches = 0, first = -1, maxDiff = 0
    for i in 0..<min(got.count, want.count) where got[i] != want[i] {
        if first < 0 { first = i }
        mismatches += 1
        maxDiff = max(maxDiff, abs(Int(got[i]) - Int(want[i])))
    }
    #expect(mismatches == 0, "\(what) \(mismatches) of \(want.count) values differ (first at \(first), max |diff| \(maxDiff))",
            sourceLocation: sourceLocation)
}

import Foundation
import TestSupport

/// Whether `actual` meets the corpus tolerance against `golden` (see the corpus README):
/// float32 within atol + rtol * |golden|, int8 and int16 within the allowed units, anything
/// else exact.
func matches(_ actual: Data, _ golden: Data, dtype: String, tolerance: CorpusCase.Tolerance?) -> Bool {
    guard actual.count == golden.count else { return false }
    switch (tolerance?.kind, dtype) {
    case ("float", "float32"):
        let a = floats(actual), g = floats(golden)
        let atol = Float(tolerance?.atol ?? 0), rtol = Float(tolerance?.rtol ?? 0)
        return zip(a, g).allSatisfy { abs($0 - $1) <= atol + rtol * abs($1) }
    case ("quantized", "int8"):
        let units = Int(tolerance?.maxAbsDiffUnits ?? 0)
        return zip(actual, golden).allSatisfy { abs(Int(Int8(bitPattern: $0)) - Int(Int8(bitPattern: $1))) <= units }
    case ("quantized", "int16"):
        let units = Int(tolerance?.maxAbsDiffUnits ?? 0)
        return zip(int16s(actual), int16s(golden)).allSatisfy { abs(Int($0) - Int($1)) <= units }
    default:
        return actual == golden
    }
}

/// The float32 values of little-endian bytes.
func floats(_ data: Data) -> [Float] {
    stride(from: 0, to: data.count, by: 4).map { i in
        var bits: UInt32 = 0
        for k in 0..<4 { bits |= UInt32(data[data.startIndex + i + k]) << (8 * k) }
        return Float(bitPattern: bits)
    }
}

/// The int16 values of little-endian bytes.
func int16s(_ data: Data) -> [Int16] {
    stride(from: 0, to: data.count, by: 2).map { i in
        Int16(bitPattern: UInt16(data[data.startIndex + i]) | UInt16(data[data.startIndex + i + 1]) << 8)
    }
}

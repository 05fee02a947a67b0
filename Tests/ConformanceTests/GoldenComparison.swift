import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// Runs a manifest case through the same path as `tflite run` (`ModelRunner`, one thread) and
/// expects every output to match its reference under the case's tolerance; paths are relative
/// to `root`.
func expectMatchesReference(_ c: CorpusCase, root: URL) throws {
    let file = { (path: String) in root.appendingPathComponent(path).path }
    let inputs = try c.inputs.map { try NPYArray(contentsOf: file($0.file)) }
    let outputs = try ModelRunner.run(modelPath: file(c.model), inputs: inputs, threads: 1, signature: c.signature)
    try #require(outputs.count == c.outputs.count, "output count")
    let goldens = try c.outputs.map { try NPYArray(contentsOf: file($0.file)) }
    for (k, spec) in c.outputs.enumerated() {
        var rows: Int?
        if let valid = spec.validRows {
            try #require(valid.axis == 1)
            rows = Int(numericValues(goldens[valid.countFromOutput])[0])
        }
        let tolerance = spec.tolerance ?? CorpusCase.Tolerance(kind: "exact")
        let result = compare(outputs[k], golden: goldens[k], tolerance: tolerance, validRows: rows)
        #expect(result.failures.isEmpty, "\(c.caseName) output \(k) '\(spec.name)': \(result.failures.joined(separator: "; "))")
        if result.offByOne > 0 {
            print("conformance: \(c.caseName) output \(k): \(result.offByOne) element(s) differ by one unit")
        }
    }
}

/// The outcome of comparing one output with its LiteRT golden.
struct OutputComparison {
    var failures: [String] = []
    /// Elements of quantised outputs that differ by exactly one unit (allowed, but reported).
    var offByOne = 0
    var maxAbsDiff = 0.0
}

/// Elements of an array as Double, for comparison across dtypes.
func numericValues(_ a: NPYArray) -> [Double] {
    switch a.dtype {
    case .float32: return a.values(as: Float.self).map(Double.init)
    case .float16: return a.values(as: UInt16.self).map { Double(Float(Float16(bitPattern: $0))) }
    case .float64: return a.values(as: Double.self)
    case .int8: return a.values(as: Int8.self).map(Double.init)
    case .uInt8, .bool: return a.values(as: UInt8.self).map(Double.init)
    case .int16: return a.values(as: Int16.self).map(Double.init)
    case .uInt16: return a.values(as: UInt16.self).map(Double.init)
    case .int32: return a.values(as: Int32.self).map(Double.init)
    case .uInt32: return a.values(as: UInt32.self).map(Double.init)
    case .int64: return a.values(as: Int64.self).map(Double.init)
    case .uInt64: return a.values(as: UInt64.self).map(Double.init)
    case .complex64: return a.values(as: Float.self).map(Double.init)
    case .bytes: return a.data.map(Double.init)
    }
}

/// Compares `actual` with `golden` under the manifest's tolerance. `rows` limits the
/// comparison to the first `rows` entries along axis 1 (detector outputs past num_detections
/// are unspecified).
func compare(_ actual: NPYArray, golden: NPYArray, tolerance: CorpusCase.Tolerance, validRows rows: Int? = nil) -> OutputComparison {
    var result = OutputComparison()
    guard actual.dtype == golden.dtype else {
        result.failures.append("dtype \(actual.dtype.name), golden \(golden.dtype.name)")
        return result
    }
    guard actual.shape == golden.shape else {
        result.failures.append("shape \(actual.shape), golden \(golden.shape)")
        return result
    }
    if let strings = golden.byteStrings {
        // Strings match exactly or not at all.
        let got = actual.byteStrings ?? []
        if let i = strings.indices.first(where: { got[$0] != strings[$0] }) {
            let bad = strings.indices.filter { got[$0] != strings[$0] }.count
            result.failures.append("\(bad) of \(strings.count) strings differ; first: element \(i): got \(String(decoding: got[i], as: UTF8.self).debugDescription), golden \(String(decoding: strings[i], as: UTF8.self).debugDescription)")
        }
        return result
    }
    let a = numericValues(actual)
    let g = numericValues(golden)
    // Elements to compare: all, or those whose axis-1 index is below `rows`.
    let inner = golden.shape.count > 2 ? golden.shape[2...].reduce(1, *) * (golden.dtype == .complex64 ? 2 : 1) : 1
    let axis1 = golden.shape.count > 1 ? golden.shape[1] : 1
    var bad = 0
    var firstBad: String?
    for i in g.indices {
        if let rows, (i / inner) % axis1 >= rows { continue }
        let diff = abs(a[i] - g[i])
        let ok: Bool
        switch tolerance.kind {
        case "float":
            let atol = tolerance.atol ?? 0, rtol = tolerance.rtol ?? 0
            ok = (a[i].isNaN && g[i].isNaN) || diff <= atol + rtol * abs(g[i])
        case "quantized":
            ok = diff <= (tolerance.maxAbsDiffUnits ?? 0)
            if diff == 1 { result.offByOne += 1 }
        default:
            ok = a[i] == g[i] || (a[i].isNaN && g[i].isNaN)
        }
        if !diff.isNaN { result.maxAbsDiff = max(result.maxAbsDiff, diff) }
        if !ok {
            bad += 1
            if firstBad == nil { firstBad = "element \(i): got \(a[i]), golden \(g[i])" }
        }
    }
    if bad > 0 {
        result.failures.append("\(bad) of \(g.count) elements outside tolerance (max |diff| \(result.maxAbsDiff)); first: \(firstBad!)")
    }
    return result
}

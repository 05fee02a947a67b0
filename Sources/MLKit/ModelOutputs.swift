import Foundation
internal import TFLiteTasks

/// The outputs of one ``ModelInterpreter`` run (ML Kit's `ModelOutputs`).
///
/// ```swift
/// let probabilities = (try? outputs.output(index: 0) as? [[NSNumber]])?[0]
/// ```
public final class ModelOutputs: @unchecked Sendable {
    private let outputs: TFLiteTasks.ModelOutputs
    /// The declared output formats, which the run checked against the model's outputs.
    private let formats: [Int: TFLiteTasks.ModelInputOutputOptions.Format]

    init(outputs: TFLiteTasks.ModelOutputs, formats: [Int: TFLiteTasks.ModelInputOutputOptions.Format]) {
        self.outputs = outputs
        self.formats = formats
    }

    /// Output `index` as ML Kit gives it: `NSNumber`s in arrays nested as the declared
    /// dimensions (`[[NSNumber]]` for `[1, 1000]`). Throws an `NSError` (code 3) for an index
    /// the model does not have.
    public func output(index: UInt) throws -> Any {
        guard let i = Int(exactly: index), let format = formats[i] else {
            throw VisionError.failed("output index \(index) is out of range: the model has \(outputs.count) outputs")
        }
        let bytes: [UInt8]
        do { bytes = try outputs.data(index: i) } catch { throw VisionError.failed(error) }
        let numbers = Self.numbers(bytes, format.type)
        // An output whose shape depends on the input values can leave the declared shape.
        let expected = format.dimensions.reduce(1, *)
        guard numbers.count == expected else {
            throw VisionError.failed("output \(index) has \(numbers.count) values; the declared dimensions \(format.dimensions) take \(expected)")
        }
        var next = 0
        func nest(_ dims: ArraySlice<Int>) -> Any {
            guard let first = dims.first else { return numbers[0] }
            if dims.count == 1 {
                defer { next += first }
                return Array(numbers[next..<next + first])
            }
            return (0..<first).map { _ in nest(dims.dropFirst()) }
        }
        return nest(format.dimensions[...])
    }

    /// The little-endian values in `bytes` as NSNumbers of `type`.
    private static func numbers(_ bytes: [UInt8], _ type: TFLiteTasks.ModelElementType) -> [NSNumber] {
        bytes.withUnsafeBytes { raw in
            func load<T: FixedWidthInteger>(_: T.Type, _ make: (T) -> NSNumber) -> [NSNumber] {
                stride(from: 0, to: raw.count, by: MemoryLayout<T>.size).map {
                    make(T(littleEndian: raw.loadUnaligned(fromByteOffset: $0, as: T.self)))
                }
            }
            switch type {
            case .float32: return load(UInt32.self) { NSNumber(value: Float(bitPattern: $0)) }
            case .uInt8: return raw.map { NSNumber(value: $0) }
            case .int8: return raw.map { NSNumber(value: Int8(bitPattern: $0)) }
            case .int32: return load(Int32.self) { NSNumber(value: $0) }
            case .int64: return load(Int64.self) { NSNumber(value: $0) }
            }
        }
    }
}

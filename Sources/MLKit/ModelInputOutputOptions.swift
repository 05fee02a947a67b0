import Foundation
internal import TFLiteTasks

/// The element types and dimensions of a custom model's inputs and outputs (ML Kit's
/// `ModelInputOutputOptions`). Every input and output of the model must be declared, with the
/// model's element type and shape (an input may take another size along a dimension the model
/// leaves open); a disagreement is reported by ``ModelInterpreter/run(inputs:options:completion:)``.
///
/// ```swift
/// let ioOptions = ModelInputOutputOptions()
/// try ioOptions.setInputFormat(index: 0, type: .uInt8, dimensions: [1, 224, 224, 3])
/// try ioOptions.setOutputFormat(index: 0, type: .uInt8, dimensions: [1, 1000])
/// ```
public final class ModelInputOutputOptions: @unchecked Sendable {
    /// The declared formats; a run reads them once, when it starts.
    private(set) var formats = TFLiteTasks.ModelInputOutputOptions()

    public init() {}

    /// Declares input `index`. Throws (an `NSError`, code 3) when `type` is `.unknown` or
    /// `dimensions` is empty or holds a value that is not a positive integer.
    public func setInputFormat(index: UInt, type: ModelElementType, dimensions: [NSNumber]) throws {
        let (i, t, d) = try Self.checked("input", index, type, dimensions)
        do { try formats.setInputFormat(index: i, type: t, dimensions: d) } catch { throw VisionError.failed(error) }
    }

    /// Declares output `index`; throws as ``setInputFormat(index:type:dimensions:)`` does.
    public func setOutputFormat(index: UInt, type: ModelElementType, dimensions: [NSNumber]) throws {
        let (i, t, d) = try Self.checked("output", index, type, dimensions)
        do { try formats.setOutputFormat(index: i, type: t, dimensions: d) } catch { throw VisionError.failed(error) }
    }

    /// The runtime's spelling of one format; the runtime checks that the dimensions are positive.
    private static func checked(_ role: String, _ index: UInt, _ type: ModelElementType,
                                _ dimensions: [NSNumber]) throws(NSError) -> (Int, TFLiteTasks.ModelElementType, [Int]) {
        guard let i = Int(exactly: index) else { throw VisionError.failed("\(role) index \(index) is out of range") }
        guard let t = type.taskType else { throw VisionError.failed("\(role) \(index): the element type is unknown") }
        var d: [Int] = []
        for n in dimensions {
            // NSNumber holds any number; a dimension must be a whole one (2.5 is not 2).
            guard let v = Int(exactly: n.doubleValue) else {
                throw VisionError.failed("\(role) \(index): dimension \(n) is not an integer")
            }
            d.append(v)
        }
        return (i, t, d)
    }
}

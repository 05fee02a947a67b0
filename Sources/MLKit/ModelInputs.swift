import Foundation

/// The inputs of one ``ModelInterpreter`` run, in the model's input order (ML Kit's
/// `ModelInputs`).
///
/// ```swift
/// let inputs = ModelInputs()
/// try inputs.addInput(inputData)    // Data: the input's bytes, little-endian
/// ```
public final class ModelInputs: @unchecked Sendable {
    /// The inputs added so far; a run reads them once, when it starts.
    private(set) var values: [ModelInput] = []

    public init() {}

    /// Appends the next input: `Data` (or `NSData`) holding the input's bytes, or an array of
    /// numbers (`NSNumber`s or Swift numbers) nested as the input's declared dimensions, or
    /// flat. The values are checked against the declared format when the model runs; anything
    /// else throws an `NSError` (code 3) here.
    public func addInput(_ input: Any) throws {
        let index = values.count
        if let data = input as? Data {
            values.append(.data(data))
        } else if let data = input as? NSData {
            values.append(.data(Data(referencing: data)))
        } else if let array = input as? [Any] {
            values.append(.array(array))
        } else if let array = input as? NSArray {
            values.append(.array(Array(array)))
        } else {
            throw VisionError.failed("input \(index): \(type(of: input)) is neither Data nor an array of numbers")
        }
    }
}

import Foundation

/// Why a task API call failed; every case says what is wrong and where.
public enum TaskError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// A model or bundle file is missing or unreadable.
    case fileNotFound(String)
    /// A bundle's manifest or metadata file is malformed or names the wrong things.
    case invalidBundle(String)
    /// The labels do not fit the model's output.
    case labelMismatch(String)
    /// The model cannot be used for this task (wrong inputs/outputs, unreadable metadata).
    case unsupportedModel(String)
    /// The image could not be decoded or has an unusable layout.
    case invalidImage(String)
    /// A declared input/output format does not match the model, or given data does not fit.
    case invalidFormat(String)
    /// The runtime failed while loading or running the model.
    case runtime(String)

    /// The message.
    public var description: String {
        switch self {
        case .fileNotFound(let m): return "file not found: \(m)"
        case .invalidBundle(let m): return "invalid model bundle: \(m)"
        case .labelMismatch(let m): return "labels do not match the model: \(m)"
        case .unsupportedModel(let m): return "unsupported model: \(m)"
        case .invalidImage(let m): return "invalid image: \(m)"
        case .invalidFormat(let m): return "input/output format mismatch: \(m)"
        case .runtime(let m): return m
        }
    }

    /// The message, for `localizedDescription`.
    public var errorDescription: String? { description }
}

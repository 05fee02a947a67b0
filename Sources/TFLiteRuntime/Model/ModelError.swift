import FlatBuffers

/// Why a model could not be loaded.
public enum ModelError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened, measured or mapped.
    case io(path: String, reason: String)
    /// The bytes are not a well-formed FlatBuffer of the TFLite schema.
    case flatBuffer(FlatBufferError)
    /// The FlatBuffer is well formed but describes an inconsistent model: `location` names
    /// the place (e.g. `subgraph 0, operator 12 (CONV_2D)` or `subgraph 0, tensor 7
    /// 'conv1/weights'`), `reason` the problem.
    case invalid(location: String, reason: String)

    public var description: String {
        switch self {
        case .io(let path, let reason): "cannot read model '\(path)': \(reason)"
        case .flatBuffer(let error): "malformed model file: \(error)"
        case .invalid(let location, let reason): "invalid model: \(location): \(reason)"
        }
    }
}

internal import TFLiteRuntime

/// The TensorFlow Lite runtime behind this API.
public enum Runtime {
    /// The runtime's version, in semantic versioning (`MAJOR.MINOR.PATCH`). This is the
    /// version of this package, not of a LiteRT library: none is linked. Its operators follow
    /// LiteRT 2.3 (`ai-edge-litert` 2.3.0), whose outputs the test suite compares against.
    public static var version: String { packageVersion }
}

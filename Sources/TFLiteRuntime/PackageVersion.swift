/// This package's version (semantic versioning), which `tflite --version` and
/// TensorFlowLiteSwift's `Runtime.version` report. Change it here, in this one place, when a
/// release is tagged.
public let packageVersion = "0.1.0"

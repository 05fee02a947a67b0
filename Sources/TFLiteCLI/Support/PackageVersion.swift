/// The package's version, printed by `tflite --version`. Change it here, in this one place,
/// when a release is tagged.
let packageVersion = "0.1.0"

import Foundation

/// The run length and seed the fuzz suites read from the environment, so a long run is the
/// same tests with `TFLITE_FUZZ_ITERATIONS` and `TFLITE_FUZZ_SEED` set (see `Scripts/fuzz_*.sh`).
enum FuzzSettings {
    static func iterations(default value: Int) -> Int {
        ProcessInfo.processInfo.environment["TFLITE_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? value
    }

    static func seed(default value: UInt64) -> UInt64 {
        ProcessInfo.processInfo.environment["TFLITE_FUZZ_SEED"].flatMap { UInt64($0) } ?? value
    }
}

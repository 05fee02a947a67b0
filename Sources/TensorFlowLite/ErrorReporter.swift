import Foundation

/// Writes the runtime's reason for a failure whose error case carries no message (a model
/// that fails to load, a failed allocation) to standard error, as LiteRT's default error
/// reporter does, so that `failedToAllocateTensors` can still be explained.
enum ErrorReporter {
    static func report(_ error: some Error) {
        FileHandle.standardError.write(Data("TensorFlow Lite Error: \(error)\n".utf8))
    }
}

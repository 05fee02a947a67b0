import Foundation

/// Writes the runtime's reason for a failure whose error case carries no message (a model
/// that fails to load, a failed allocation) to standard error, as LiteRT's default error
/// reporter does, so that `failedToAllocateTensors` can still be explained.
enum ErrorReporter {
    static func report(_ error: some Error) {
        FileHandle.standardError.write(Data("TensorFlow Lite Error: \(error)\n".utf8))
    }

    /// `body`'s result; when it fails, its error is reported and `failure` thrown in its place.
    static func replacingError<T, E: Error>(with failure: @autoclosure () -> E, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            report(error)
            throw failure()
        }
    }
}

import Foundation

/// One image of a batch: which file, and either the task's result or why it failed.
public struct ImageBatchResult<Value: Sendable>: Sendable {
    /// The file, as given.
    public let file: URL
    /// Its position in the list given; results arrive in this order.
    public let index: Int
    /// The size of the displayed (EXIF-oriented) image, the space result boxes are in; nil
    /// when the file could not be read or decoded.
    public let imageSize: ImageSize?
    /// The task's result, or the error that made this image fail.
    public let result: Result<Value, TaskError>
}

import Foundation
import TFLiteRuntime

/// Checks that a downloaded file is a usable model before it replaces the cached one; throws
/// to reject it. Runs on the verified temporary file, so a rejected file never reaches the
/// cache.
public typealias ModelFileValidator = @Sendable (URL) throws -> Void

extension ModelManager {
    /// The validator a `ModelManager` uses unless given another: the file must load as a
    /// model, with every check `Model(path:)` makes (FlatBuffer structure, the `TFL3`
    /// identifier, indices, shapes and buffer sizes).
    ///
    /// - Throws: `ModelDownloadError.invalidModel` with the loader's reason.
    public static let modelLoaderValidator: ModelFileValidator = { url in
        do {
            _ = try Model(path: url.path)
        } catch {
            throw ModelDownloadError.invalidModel(reason: "\(error)")
        }
    }
}

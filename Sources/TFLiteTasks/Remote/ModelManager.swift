import Foundation

/// Downloads remote models into a local cache and finds the current good file of each.
///
/// Cache layout, one folder per model name under `cacheDirectory`:
///
/// ```
/// <cacheDirectory>/<name>/record.json        which file is current, its version, hash, origin
/// <cacheDirectory>/<name>/<sha256>.tflite    the current model file
/// <cacheDirectory>/<name>/.lock              flock(2) lock held while the folder changes
/// <cacheDirectory>/<name>/.partial-<uuid>    downloads in progress (removed when they end)
/// ```
///
/// A download goes to a partial file, is checked (size, SHA-256, then the validator), and
/// only then renamed into place and recorded, under the lock. Any failure leaves the
/// previous model untouched, and several managers or processes sharing one cache end with
/// one good file.
public final class ModelManager: Sendable {
    /// The manager for the default cache directory (`defaultCacheDirectory()`).
    public static let shared = ModelManager(cacheDirectory: ModelManager.defaultCacheDirectory())

    /// The folder holding one subfolder per downloaded model.
    public let cacheDirectory: URL
    let validator: ModelFileValidator
    let notificationCenter: NotificationCenter

    /// Creates a manager with its own cache directory (created on first download).
    /// - Parameters:
    ///   - cacheDirectory: where models are kept.
    ///   - validator: run on every verified download before it may replace the cached model;
    ///     throwing rejects the file.
    ///   - notificationCenter: where `.modelDownloadDidSucceed` and `.modelDownloadDidFail`
    ///     are posted.
    public init(
        cacheDirectory: URL,
        validator: @escaping ModelFileValidator = ModelManager.modelLoaderValidator,
        notificationCenter: NotificationCenter = .default
    ) {
        self.cacheDirectory = cacheDirectory.standardizedFileURL
        self.validator = validator
        self.notificationCenter = notificationCenter
    }

    /// The platform's cache location for models: `~/Library/Caches/swift-tflite/models` on
    /// Apple platforms; elsewhere `$XDG_CACHE_HOME/swift-tflite/models`, or
    /// `$HOME/.cache/swift-tflite/models` when `XDG_CACHE_HOME` is unset or not absolute.
    /// - Parameter environment: the environment variables to read (the process's by default).
    public static func defaultCacheDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        #if canImport(Darwin)
        let base = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Caches")
        #else
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache")
        } else {
            base = URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true).appendingPathComponent(".cache")
        }
        #endif
        return base.appendingPathComponent("swift-tflite").appendingPathComponent("models")
    }

    func folder(for name: String) -> URL {
        cacheDirectory.appendingPathComponent(name, isDirectory: true)
    }

    func lockFile(for name: String) -> URL {
        folder(for: name).appendingPathComponent(".lock")
    }

    func recordFile(for name: String) -> URL {
        folder(for: name).appendingPathComponent("record.json")
    }
}

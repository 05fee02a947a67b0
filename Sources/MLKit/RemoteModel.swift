import Foundation
internal import TFLiteTasks

/// Where a remote model is hosted (ML Kit's `RemoteModelSource`). ML Kit's only source is
/// Firebase; here it is ``URLModelSource``, a manifest on any HTTP(S) server.
public class RemoteModelSource: @unchecked Sendable {
    /// The model's name, its identity in the download cache.
    public let name: String

    init(name: String) {
        self.name = name
    }
}

/// A model published on an HTTP(S) server as a JSON manifest (`name`, `version`, `url`,
/// `sha256`, `size`; see docs/remote-models.md) beside its `.tflite` file.
public final class URLModelSource: RemoteModelSource, @unchecked Sendable {
    /// The manifest's URL.
    public let manifestURL: URL

    /// A source; a name or URL the downloader cannot use is reported by the download (its
    /// failure notification), as ML Kit reports a bad Firebase model name.
    /// - Parameters:
    ///   - name: the manifest's `name`: 1 to 128 characters from `A-Z a-z 0-9 . - _`.
    ///   - manifestURL: the `http` or `https` URL of the manifest.
    public init(name: String, manifestURL: URL) {
        self.manifestURL = manifestURL
        super.init(name: name)
    }
}

/// A model downloaded by the ``ModelManager`` (ML Kit's `RemoteModel`).
public class RemoteModel: @unchecked Sendable {
    /// The model's name.
    public let name: String
    /// Where it is hosted.
    public let remoteModelSource: RemoteModelSource

    init(remoteModelSource: RemoteModelSource) {
        self.name = remoteModelSource.name
        self.remoteModelSource = remoteModelSource
    }

    /// The downloader's description of this model, or why it has none.
    func taskModel() throws(NSError) -> TFLiteTasks.RemoteModel {
        guard let source = remoteModelSource as? URLModelSource else {
            throw VisionError.failed("remote model '\(name)': only a URLModelSource can be downloaded")
        }
        do {
            return try TFLiteTasks.RemoteModel(name: name, source: source.manifestURL)
        } catch {
            throw VisionError.failed(error)
        }
    }
}

/// A custom classification model to download (ML Kit's `CustomRemoteModel`).
///
/// ```swift
/// let remoteModel = CustomRemoteModel(
///     remoteModelSource: URLModelSource(name: "flowers", manifestURL: URL(string: "https://example.com/flowers.json")!))
/// ```
public final class CustomRemoteModel: RemoteModel, @unchecked Sendable {
    public override init(remoteModelSource: RemoteModelSource) {
        super.init(remoteModelSource: remoteModelSource)
    }
}

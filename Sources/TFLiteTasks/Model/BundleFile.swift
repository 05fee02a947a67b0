import Foundation

/// A file a bundle's manifest names, resolved inside the bundle's folder.
///
/// The manifest is untrusted input like the model beside it: a `modelFile` of
/// `../../etc/passwd` or `/etc/passwd` must not make the loader read outside the folder the
/// caller handed over. The check is on the name the manifest spells; symbolic links inside the
/// folder are followed, since they are placed by whoever owns the folder, not by the manifest
/// (the corpus bundles link to shared models that way).
enum BundleFile {
    /// The path of `name` inside `folder`.
    /// - Parameters:
    ///   - name: a relative path as the manifest spells it (subfolders allowed).
    ///   - folder: the bundle's folder.
    ///   - source: what named the file (the manifest's path and key), for the error.
    /// - Throws: `TaskError.invalidBundle` when `name` is empty, absolute, or holds a `..`
    ///   component or a NUL.
    static func path(_ name: String, in folder: URL, namedBy source: String) throws(TaskError) -> String {
        func refuse(_ why: String) -> TaskError {
            .invalidBundle("\(source): '\(name.prefix(200))' \(why); the files a manifest names must lie inside its folder")
        }
        guard !name.utf8.contains(0) else { throw refuse("is not a file name") }
        guard !name.hasPrefix("/") else { throw refuse("is an absolute path") }
        guard !name.split(separator: "/").contains("..") else { throw refuse("climbs out of the folder") }
        return folder.appendingPathComponent(name).path
    }
}

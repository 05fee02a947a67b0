import Foundation

/// The `manifest.json` of an AutoML Vision Edge image labelling export.
struct AutoMLManifest {
    var modelFile: String
    var labelsFile: String
    var modelType: String

    /// Reads and checks a manifest. Google's own sample manifests end their object with a
    /// trailing comma, which strict JSON refuses, so one is removed before parsing.
    static func load(_ path: String) throws(TaskError) -> AutoMLManifest {
        guard let data = FileManager.default.contents(atPath: path) else { throw .fileNotFound(path) }
        let object = try JSONLoose.object(data, path: path)
        func string(_ key: String) throws(TaskError) -> String {
            guard let value = object[key] else {
                throw .invalidBundle("\(path): missing key '\(key)' (keys present: \(object.keys.sorted().joined(separator: ", ")))")
            }
            guard let text = value as? String, !text.isEmpty else { throw .invalidBundle("\(path): '\(key)' must be a non-empty string") }
            return text
        }
        let manifest = AutoMLManifest(modelFile: try string("modelFile"), labelsFile: try string("labelsFile"),
                                      modelType: try string("modelType"))
        guard manifest.modelType == "IMAGE_LABELING" else {
            throw .invalidBundle("\(path): modelType '\(manifest.modelType)' is not supported (expected IMAGE_LABELING)")
        }
        return manifest
    }
}

/// JSON objects as AutoML writes them (tolerating a trailing comma before `}` or `]`).
enum JSONLoose {
    static func object(_ data: Data, path: String) throws(TaskError) -> [String: Any] {
        var bytes = [UInt8](data)
        // Drop commas followed only by whitespace and a closing bracket (outside strings).
        var inString = false, escaped = false
        var i = 0
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 { inString = false }
            } else if b == 0x22 {
                inString = true
            } else if b == 0x2C {
                var j = i + 1
                while j < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == 0x7D || bytes[j] == 0x5D { i += 1; continue }
            }
            out.append(b)
            i += 1
        }
        bytes = out
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: Data(bytes)) } catch {
            throw .invalidBundle("\(path): not valid JSON (\(error.localizedDescription))")
        }
        guard let object = parsed as? [String: Any] else { throw .invalidBundle("\(path): the top level must be a JSON object") }
        return object
    }
}

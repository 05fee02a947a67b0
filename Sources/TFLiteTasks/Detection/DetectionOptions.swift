import FlatBuffers

/// Reads the post-processing op's FlexBuffer options that the task layer needs.
enum DetectionOptions {
    /// The integer option `key`, or nil when the options cannot be read.
    static func int(_ key: String, _ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let map = try? FlexBuffer.root(of: bytes).map, let value = try? map[key],
              let n = try? value.asInt else { return nil }
        return Int(n)
    }
}

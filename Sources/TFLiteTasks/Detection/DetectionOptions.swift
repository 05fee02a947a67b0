import FlatBuffers

/// Reads the post-processing op's FlexBuffer options that the task layer needs.
enum DetectionOptions {
    /// `num_classes`, or nil when the options cannot be read.
    static func numClasses(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let map = try? FlexBuffer.root(of: bytes).map, let value = try? map["num_classes"],
              let n = try? value.asInt else { return nil }
        return Int(n)
    }
}

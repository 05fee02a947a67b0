extension Tensor {
    /// The strings of a string tensor, each as its bytes, in C order; nil for other types or
    /// when the bytes are not a valid packed string list (a malformed constant in a model).
    public var byteStrings: [[UInt8]]? {
        guard dataType == .string else { return nil }
        return try? PackedStrings.decode(data)
    }

    /// The strings of a string tensor decoded as UTF-8 (invalid sequences become U+FFFD); nil
    /// for other types.
    public var strings: [String]? {
        byteStrings?.map { String(decoding: $0, as: UTF8.self) }
    }
}

import FlatBuffers

/// Runs `body` with a view of `bytes` kept alive for the call.
func withBuffer<R>(_ bytes: [UInt8], limits: FlatBufferLimits? = nil,
                   _ body: (FlatBuffer) throws -> R) throws -> R {
    try bytes.withUnsafeBytes { raw in try body(FlatBuffer(bytes: raw, limits: limits)) }
}

/// Signed 4-bit values as LiteRT packs them: two per byte, the even-indexed value in the low
/// nibble, each in two's complement (-8...7).
public enum PackedInt4 {
    /// Value `i` of the packed data at `packed`.
    @inline(__always)
    public static func value(_ packed: UnsafePointer<UInt8>, at i: Int) -> Int8 {
        let byte = Int8(bitPattern: packed[i >> 1])
        // An arithmetic shift sign-extends the nibble: the high one directly, the low one
        // after moving it to the top.
        return i & 1 == 0 ? (byte &<< 4) &>> 4 : byte &>> 4
    }

    /// Values `start ..< start + count` (`start` even) widened to int8 into `output`. The loop
    /// writes each byte's two values next to each other, a pattern the vectoriser turns into
    /// shifts and interleaving shuffles.
    @inline(__always)
    public static func unpack(_ packed: UnsafePointer<UInt8>, from start: Int, count: Int, into output: UnsafeMutablePointer<Int8>) {
        let source = packed + (start >> 1)
        for j in 0..<(count >> 1) {
            let byte = Int8(bitPattern: source[j])
            output[2 &* j] = (byte &<< 4) &>> 4
            output[2 &* j &+ 1] = byte &>> 4
        }
        if count & 1 == 1 { output[count - 1] = (Int8(bitPattern: source[count >> 1]) &<< 4) &>> 4 }
    }
}

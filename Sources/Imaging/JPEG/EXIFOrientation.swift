/// Reads the Orientation tag (0x0112) from the IFD0 of an EXIF APP1 payload. Every offset
/// is bounds-checked; a damaged EXIF block yields nil rather than an error, since the
/// pixels are still usable.
enum EXIFOrientation {
    /// `payload` is the APP1 segment body, starting with `Exif\0\0`.
    static func parse(_ payload: ArraySlice<UInt8>) -> Orientation? {
        let p = Array(payload)
        guard p.count >= 14, p[0..<6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) else { return nil }
        let tiff = 6
        let little: Bool
        switch (p[tiff], p[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= p.count else { return nil }
            return little ? Int(p[at]) | Int(p[at + 1]) << 8 : Int(p[at]) << 8 | Int(p[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(tiff + 2) == 42, let ifdOffset = u32(tiff + 4) else { return nil }
        let ifd = tiff + ifdOffset
        guard let entries = u16(ifd) else { return nil }
        for e in 0..<entries {
            let entry = ifd + 2 + 12 * e
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), count 1: the value sits in the first two bytes of the value field.
            guard u16(entry + 2) == 3, u32(entry + 4) == 1, let value = u16(entry + 8) else { return nil }
            return Orientation(exifValue: value)
        }
        return nil
    }
}

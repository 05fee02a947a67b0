extension NPYArray {
    private static let magic: [UInt8] = [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59]  // "\x93NUMPY"

    /// Parses the bytes of an `.npy` file.
    public init(npyBytes bytes: [UInt8]) throws(NPYError) {
        guard bytes.count >= 10, Array(bytes[0..<6]) == Self.magic else { throw .notNPY }
        let major = bytes[6]
        let headerLength: Int
        let headerStart: Int
        switch major {
        case 1:
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            headerStart = 10
        case 2, 3:
            guard bytes.count >= 12 else { throw .badHeader("truncated header length") }
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
            headerStart = 12
        default:
            throw .unsupportedVersion(major)
        }
        guard headerLength <= bytes.count - headerStart else { throw .badHeader("header runs past the end of the file") }
        let header = String(decoding: bytes[headerStart..<(headerStart + headerLength)], as: UTF8.self)
        let (descr, fortran, shape) = try Self.parseHeader(header)
        guard !fortran else { throw .fortranOrder }
        let payload = Array(bytes[(headerStart + headerLength)...])
        if let (kind, width) = Self.stringDescr(descr) {
            guard kind == "U" else {
                try self.init(dtype: .bytes, shape: shape, data: payload, itemSize: width)
                return
            }
            try self.init(unicode: payload, width: width, shape: shape)
            return
        }
        guard let dtype = DType(descr: descr) else { throw .unsupportedDType(descr) }
        try self.init(dtype: dtype, shape: shape, data: payload)
    }

    /// `S<width>` or `U<width>` (any byte-order mark) as its kind and width in characters.
    private static func stringDescr(_ descr: String) -> (Character, Int)? {
        var d = Substring(descr)
        if let first = d.first, "<>|=".contains(first) { d = d.dropFirst() }
        guard let kind = d.first, kind == "S" || kind == "U", let width = Int(d.dropFirst()), width > 0, width <= 1 << 30 else { return nil }
        return (kind, width)
    }

    /// Reads a NumPy unicode array (UTF-32, little-endian, NUL-padded) as UTF-8 byte strings.
    private init(unicode payload: [UInt8], width: Int, shape: [Int]) throws(NPYError) {
        guard shape.allSatisfy({ $0 >= 0 }) else { throw .invalidShape(shape) }
        let count = shape.reduce(1) { $0.multipliedReportingOverflow(by: $1).overflow ? Int.max : $0 * $1 }
        let (bytes, o) = count.multipliedReportingOverflow(by: 4 * width)
        guard !o, bytes == payload.count else { throw .sizeMismatch(expected: o ? Int.max : bytes, actual: payload.count) }
        var strings: [[UInt8]] = []
        strings.reserveCapacity(count)
        for i in 0..<count {
            var scalars = String.UnicodeScalarView()
            for k in 0..<width {
                let at = 4 * (i * width + k)
                let code = UInt32(payload[at]) | UInt32(payload[at + 1]) << 8 | UInt32(payload[at + 2]) << 16 | UInt32(payload[at + 3]) << 24
                guard let scalar = Unicode.Scalar(code) else { throw .badHeader("element \(i) holds \(code), not a Unicode scalar") }
                scalars.append(scalar)
            }
            var utf8 = Array(String(scalars).utf8)
            while utf8.last == 0 { utf8.removeLast() }
            strings.append(utf8)
        }
        try self.init(strings: strings, shape: shape)
    }

    /// The `.npy` (version 1.0) encoding of this array.
    public func npyBytes() -> [UInt8] {
        let shapeText = shape.count == 1 ? "(\(shape[0]),)" : "(" + shape.map(String.init).joined(separator: ", ") + ")"
        let descr = dtype == .bytes ? "|S\(itemSize)" : dtype.rawValue
        var header = "{'descr': '\(descr)', 'fortran_order': False, 'shape': \(shapeText), }"
        // Pad with spaces so the data starts on a 64-byte boundary, newline last.
        let unpadded = 10 + header.utf8.count + 1
        header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
        let length = header.utf8.count
        var out = Self.magic + [1, 0, UInt8(length & 0xFF), UInt8(length >> 8)]
        out += Array(header.utf8)
        out += data
        return out
    }

    /// Pulls `descr`, `fortran_order` and `shape` out of the header's Python dict literal.
    private static func parseHeader(_ header: String) throws(NPYError) -> (String, Bool, [Int]) {
        let chars = Array(header)
        func value(after key: String) throws(NPYError) -> Substring {
            // Finds `'key'` (or `"key"`) and returns the text after the colon that follows it.
            for quote in ["'", "\""] {
                let needle = Array(quote + key + quote)
                guard needle.count <= chars.count else { continue }
                for start in 0...(chars.count - needle.count) where Array(chars[start..<(start + needle.count)]) == needle {
                    let rest = chars[(start + needle.count)...]
                    guard let colon = rest.firstIndex(of: ":") else { break }
                    return Substring(String(chars[(colon + 1)...])).drop(while: { $0 == " " })
                }
            }
            throw .badHeader("no '\(key)' key")
        }
        let descrText = try value(after: "descr")
        guard let quote = descrText.first, quote == "'" || quote == "\"",
              let end = descrText.dropFirst().firstIndex(of: quote)
        else { throw .badHeader("descr is not a string") }
        let descr = String(descrText[descrText.index(after: descrText.startIndex)..<end])
        let fortran = try value(after: "fortran_order").hasPrefix("True")
        let shapeText = try value(after: "shape")
        guard shapeText.first == "(", let close = shapeText.firstIndex(of: ")") else { throw .badHeader("shape is not a tuple") }
        var shape: [Int] = []
        for part in shapeText[shapeText.index(after: shapeText.startIndex)..<close].split(separator: ",") {
            let t = String(part.filter { $0 != " " && $0 != "L" })
            if t.isEmpty { continue }
            guard let d = Int(t), d >= 0 else { throw .badHeader("bad dimension '\(t)'") }
            shape.append(d)
        }
        return (descr, fortran, shape)
    }
}

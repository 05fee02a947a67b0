import FlatBuffers

/// Writes a FlexBuffer map (custom-op options) by hand, following the format: each key a
/// zero-terminated string, the key vector, then the value vector (preceded by the key
/// vector's offset and width and the entry count, followed by one packed type byte per
/// value), and last the root: an offset back to the values, the map's packed type and the
/// root's width. Every slot is 8 bytes wide; string values get a one-byte length prefix.
enum FlexMap {
    enum Value {
        case int(Int64), uint(UInt64), bool(Bool), float(Double), string(String)
    }

    static func packed(_ type: FlexBuffer.ValueType, width: Int) -> UInt8 {
        type.rawValue << 2 | UInt8(width.trailingZeroBitCount)
    }

    static func bytes(_ entries: [(String, Value)]) -> [UInt8] {
        let sorted = entries.sorted { $0.0 < $1.0 }
        var out: [UInt8] = []
        func word(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
        func pad() { while out.count % 8 != 0 { out.append(0) } }
        var keyPositions: [Int] = []
        for (key, _) in sorted {
            keyPositions.append(out.count)
            out += Array(key.utf8) + [0]
        }
        var stringPositions: [Int: Int] = [:]
        for (i, (_, value)) in sorted.enumerated() {
            if case .string(let s) = value {
                out.append(UInt8(s.utf8.count))
                stringPositions[i] = out.count
                out += Array(s.utf8) + [0]
            }
        }
        pad()
        word(UInt64(sorted.count))
        let keysStart = out.count
        for p in keyPositions { word(UInt64(out.count - p)) }
        // Prefix: the key vector's offset (from this slot), its width, then the length.
        word(UInt64(out.count - keysStart))
        word(8)
        word(UInt64(sorted.count))
        let valuesStart = out.count
        var types: [UInt8] = []
        for (i, (_, value)) in sorted.enumerated() {
            switch value {
            case .int(let v): word(UInt64(bitPattern: v)); types.append(packed(.int, width: 8))
            case .uint(let v): word(v); types.append(packed(.uint, width: 8))
            case .bool(let v): word(v ? 1 : 0); types.append(packed(.bool, width: 8))
            case .float(let v): word(v.bitPattern); types.append(packed(.float, width: 8))
            case .string: word(UInt64(out.count - stringPositions[i]!)); types.append(packed(.string, width: 1))
            }
        }
        out += types
        pad()
        word(UInt64(out.count - valuesStart))
        out += [packed(.map, width: 8), 8]
        return out
    }
}

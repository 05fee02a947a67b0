/// Label files: one label per line, line i naming class i.
enum LabelFile {
    /// The labels in `bytes` (UTF-8); a final newline does not add an empty label, `\r\n`
    /// endings are accepted. Split on bytes because Swift treats `\r\n` as one character.
    static func parse(_ bytes: [UInt8]) -> [String] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { line in
            let trimmed = line.last == 0x0D ? line.dropLast() : line[...]
            return String(decoding: trimmed, as: UTF8.self)
        }
    }
}

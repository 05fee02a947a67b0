/// The header of one scan (SOS): which components it covers, their Huffman tables and the
/// spectral selection / successive approximation parameters of progressive mode.
struct JPEGScan {
    /// Indices into the frame's components, with their DC and AC table numbers.
    var components: [(index: Int, dc: Int, ac: Int)]
    let spectralStart: Int, spectralEnd: Int
    let approximationHigh: Int, approximationLow: Int

    init(segment d: ArraySlice<UInt8>, frame: JPEGFrame, at offset: Int) throws(ImageError) {
        let b = d.startIndex
        guard d.count >= 1 else { throw .malformed(.jpeg, "empty SOS segment at byte \(offset)") }
        let n = Int(d[b])
        guard (1...4).contains(n), d.count == 4 + 2 * n else {
            throw .malformed(.jpeg, "SOS segment at byte \(offset) has \(d.count) bytes for \(n) components")
        }
        components = []
        for i in 0..<n {
            let id = d[b + 1 + 2 * i], tables = d[b + 2 + 2 * i]
            guard let index = frame.components.firstIndex(where: { $0.id == id }) else {
                throw .malformed(.jpeg, "SOS at byte \(offset) names component \(id), not in the frame")
            }
            guard !components.contains(where: { $0.index == index }) else {
                throw .malformed(.jpeg, "SOS at byte \(offset) names component \(id) twice")
            }
            let dc = Int(tables >> 4), ac = Int(tables & 15)
            guard dc <= 3, ac <= 3 else { throw .malformed(.jpeg, "SOS at byte \(offset) selects Huffman table \(dc)/\(ac), expected 0...3") }
            components.append((index, dc, ac))
        }
        if n > 1 {
            let blocks = components.reduce(0) { $0 + frame.components[$1.index].h * frame.components[$1.index].v }
            guard blocks <= 10 else { throw .malformed(.jpeg, "interleaved scan at byte \(offset) has \(blocks) blocks per MCU, over 10") }
        }
        let p = b + 1 + 2 * n
        spectralStart = Int(d[p])
        spectralEnd = Int(d[p + 1])
        approximationHigh = Int(d[p + 2] >> 4)
        approximationLow = Int(d[p + 2] & 15)
        if frame.progressive {
            guard spectralStart <= spectralEnd, spectralEnd <= 63,
                  (spectralStart == 0) == (spectralEnd == 0),
                  spectralStart == 0 || n == 1,
                  approximationHigh <= 13, approximationLow <= 13 else {
                throw .malformed(.jpeg, "progressive scan at byte \(offset) has invalid parameters Ss=\(spectralStart) Se=\(spectralEnd) Ah=\(approximationHigh) Al=\(approximationLow) for \(n) component(s)")
            }
        } else {
            guard spectralStart == 0, spectralEnd == 63, approximationHigh == 0, approximationLow == 0 else {
                throw .malformed(.jpeg, "sequential scan at byte \(offset) has Ss=\(spectralStart) Se=\(spectralEnd), expected 0 and 63")
            }
        }
    }
}

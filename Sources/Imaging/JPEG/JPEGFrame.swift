/// One colour component of a JPEG frame and its decoded DCT coefficients.
struct JPEGComponent {
    let id: UInt8
    /// Horizontal and vertical sampling factors (1...4).
    let h: Int, v: Int
    let quantTableIndex: Int
    /// Samples per line and lines of the component (T.81 A.1.1), before padding.
    let width: Int, height: Int
    /// Allocated blocks per line and block rows: whole MCUs, so interleaved scans fit.
    let blocksPerLine: Int, blockRows: Int
    /// Blocks actually covering the component; non-interleaved scans visit only these.
    let usedBlocksPerLine: Int, usedBlockRows: Int
    /// 64 coefficients per block, natural (row-major) order, quantised 16-bit values as in libjpeg.
    let coefficients: JPEGCoefficientBuffer
    /// The quantisation table latched when the component first appears in a scan.
    var quantTable: [Int32]?
    /// DC predictor of the current scan.
    var dcPredictor = 0
}

/// The frame header (SOFn) of a JPEG file.
struct JPEGFrame {
    let progressive: Bool
    let width: Int, height: Int
    var components: [JPEGComponent]
    let maxH: Int, maxV: Int
    let mcusPerLine: Int, mcuRows: Int

    init(segment d: ArraySlice<UInt8>, progressive: Bool, at offset: Int, limits: DecodeLimits) throws(ImageError) {
        guard d.count >= 6 else { throw .malformed(.jpeg, "SOF segment at byte \(offset) is \(d.count) bytes, too short") }
        let b = d.startIndex
        guard d[b] == 8 else { throw .unsupported(.jpeg, "\(d[b])-bit samples (only 8-bit JPEG is supported)") }
        height = Int(d[b + 1]) << 8 | Int(d[b + 2])
        width = Int(d[b + 3]) << 8 | Int(d[b + 4])
        let count = Int(d[b + 5])
        guard height > 0 else { throw .unsupported(.jpeg, "frame height 0 (height given later by a DNL marker)") }
        guard count == 1 || count == 3 else {
            throw .unsupported(.jpeg, "\(count) components (only grayscale and YCbCr/RGB are supported)")
        }
        guard d.count == 6 + 3 * count else { throw .malformed(.jpeg, "SOF segment at byte \(offset) has \(d.count) bytes for \(count) components") }
        _ = try limits.checkImage(width: width, height: height, channels: count, bytesPerSample: 1, format: .jpeg)
        self.progressive = progressive

        var specs: [(id: UInt8, h: Int, v: Int, tq: Int)] = []
        for i in 0..<count {
            let p = b + 6 + 3 * i
            let h = Int(d[p + 1] >> 4), v = Int(d[p + 1] & 15), tq = Int(d[p + 2])
            guard (1...4).contains(h), (1...4).contains(v) else {
                throw .malformed(.jpeg, "component \(d[p]) has sampling factors \(h)x\(v), expected 1...4")
            }
            guard tq <= 3 else { throw .malformed(.jpeg, "component \(d[p]) uses quantisation table \(tq), expected 0...3") }
            guard !specs.contains(where: { $0.id == d[p] }) else { throw .malformed(.jpeg, "component id \(d[p]) appears twice in SOF") }
            specs.append((d[p], h, v, tq))
        }
        let maxH = specs.map(\.h).max()!, maxV = specs.map(\.v).max()!
        self.maxH = maxH
        self.maxV = maxV
        let width = self.width, height = self.height
        let mcusPerLine = (width + 8 * maxH - 1) / (8 * maxH), mcuRows = (height + 8 * maxV - 1) / (8 * maxV)
        self.mcusPerLine = mcusPerLine
        self.mcuRows = mcuRows

        var coefficientBytes = 0
        for s in specs {
            let blocks = mcusPerLine * s.h * mcuRows * s.v
            coefficientBytes += blocks * 64 * MemoryLayout<Int16>.stride
        }
        try limits.checkBytes(coefficientBytes, "JPEG \(width)x\(height) coefficient buffers")

        components = specs.map { s in
            let w = (width * s.h + maxH - 1) / maxH
            let h = (height * s.v + maxV - 1) / maxV
            let perLine = mcusPerLine * s.h, rows = mcuRows * s.v
            return JPEGComponent(id: s.id, h: s.h, v: s.v, quantTableIndex: s.tq, width: w, height: h,
                                 blocksPerLine: perLine, blockRows: rows,
                                 usedBlocksPerLine: (w + 7) / 8, usedBlockRows: (h + 7) / 8,
                                 coefficients: JPEGCoefficientBuffer(count: perLine * rows * 64))
        }
    }
}

/// Zero-initialised coefficient storage, written in place by the scan decoders.
final class JPEGCoefficientBuffer {
    let pointer: UnsafeMutablePointer<Int16>
    let count: Int

    init(count: Int) {
        self.count = count
        pointer = .allocate(capacity: max(1, count))
        pointer.initialize(repeating: 0, count: max(1, count))
    }

    deinit { pointer.deallocate() }
}

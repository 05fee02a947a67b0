/// Decodes the entropy-coded data of one scan into the frame's coefficient buffers:
/// sequential (baseline) blocks, and the four progressive scan kinds of T.81 G.1.2
/// (DC first, DC refinement, AC first, AC refinement), with restart intervals.
struct JPEGEntropyDecoder {
    /// Zig-zag index -> natural (row-major) index, built by walking the anti-diagonals.
    static let naturalOrder: [Int] = {
        var order: [Int] = []
        for s in 0..<15 {
            let cells = (0...s).compactMap { i -> Int? in
                let row = i, col = s - i
                return row < 8 && col < 8 ? row * 8 + col : nil
            }
            // Even diagonals run bottom-left to top-right, odd ones the other way.
            order += s % 2 == 0 ? cells.reversed() : cells
        }
        return order
    }()

    let scan: JPEGScan
    let dcTables: [JPEGHuffmanTable?]
    let acTables: [JPEGHuffmanTable?]
    let restartInterval: Int
    private var endOfBandRun = 0

    init(scan: JPEGScan, dcTables: [JPEGHuffmanTable?], acTables: [JPEGHuffmanTable?], restartInterval: Int) {
        self.scan = scan
        self.dcTables = dcTables
        self.acTables = acTables
        self.restartInterval = restartInterval
    }

    private enum Kind { case sequential, dcFirst, dcRefine, acFirst, acRefine }

    /// Decodes the whole scan, leaving `reader` at the marker that follows it.
    mutating func decode(frame: inout JPEGFrame, reader: inout JPEGBitReader, progressive: Bool) throws(ImageError) {
        let kind: Kind
        if !progressive { kind = .sequential }
        else if scan.spectralStart == 0 { kind = scan.approximationHigh == 0 ? .dcFirst : .dcRefine }
        else { kind = scan.approximationHigh == 0 ? .acFirst : .acRefine }

        for c in scan.components {
            if kind == .sequential || kind == .dcFirst {
                guard dcTables[c.dc] != nil else { throw .malformed(.jpeg, "scan uses DC Huffman table \(c.dc), which is not defined") }
            }
            if kind == .sequential || kind == .acFirst || kind == .acRefine {
                guard acTables[c.ac] != nil else { throw .malformed(.jpeg, "scan uses AC Huffman table \(c.ac), which is not defined") }
            }
            frame.components[c.index].dcPredictor = 0
        }

        // A scan of one component walks that component's own blocks, one block per MCU.
        let single = scan.components.count == 1
        let first = frame.components[scan.components[0].index]
        let mcusPerLine = single ? first.usedBlocksPerLine : frame.mcusPerLine
        let mcuRows = single ? first.usedBlockRows : frame.mcuRows
        let total = mcusPerLine * mcuRows
        var nextRestart = 0
        endOfBandRun = 0

        for mcu in 0..<total {
            if restartInterval > 0 && mcu > 0 && mcu % restartInterval == 0 {
                guard let marker = reader.nextMarker() else {
                    throw .truncated(.jpeg, "file ends before restart marker RST\(nextRestart) (MCU \(mcu) of \(total))")
                }
                guard marker == 0xD0 + UInt8(nextRestart) else {
                    throw .malformed(.jpeg, "expected RST\(nextRestart) before MCU \(mcu) at byte \(reader.position), found marker 0x\(String(marker, radix: 16))")
                }
                reader.skipMarker()
                nextRestart = (nextRestart + 1) & 7
                for c in scan.components { frame.components[c.index].dcPredictor = 0 }
                endOfBandRun = 0
            }
            let mx = mcu % mcusPerLine, my = mcu / mcusPerLine
            for c in scan.components {
                let comp = frame.components[c.index]
                let hCount = single ? 1 : comp.h, vCount = single ? 1 : comp.v
                for v in 0..<vCount {
                    for h in 0..<hCount {
                        let bx = mx * hCount + h, by = my * vCount + v
                        let block = comp.coefficients.pointer + (by * comp.blocksPerLine + bx) * 64
                        switch kind {
                        case .sequential:
                            try decodeSequential(block, &frame.components[c.index].dcPredictor, dcTables[c.dc]!, acTables[c.ac]!, &reader)
                        case .dcFirst:
                            try decodeDCFirst(block, &frame.components[c.index].dcPredictor, dcTables[c.dc]!, &reader)
                        case .dcRefine:
                            if reader.bits(1) == 1 { block[0] |= Int16(truncatingIfNeeded: 1 << scan.approximationLow) }
                        case .acFirst:
                            try decodeACFirst(block, acTables[c.ac]!, &reader)
                        case .acRefine:
                            try decodeACRefine(block, acTables[c.ac]!, &reader)
                        }
                    }
                }
            }
            if reader.hitEndOfFile && reader.overran {
                throw .truncated(.jpeg, "entropy-coded data ends at byte \(reader.data.count) in MCU \(mcu) of \(total)")
            }
        }
    }

    @inline(__always)
    private func symbol(_ table: JPEGHuffmanTable, _ reader: inout JPEGBitReader) throws(ImageError) -> Int {
        guard let s = reader.decode(table) else {
            throw .malformed(.jpeg, "invalid Huffman code near byte \(reader.position)")
        }
        return s
    }

    @inline(__always)
    private func dcDifference(_ table: JPEGHuffmanTable, _ reader: inout JPEGBitReader) throws(ImageError) -> Int {
        let size = try symbol(table, &reader)
        guard size <= 11 else { throw .malformed(.jpeg, "DC difference size \(size) over 11 near byte \(reader.position)") }
        return size == 0 ? 0 : reader.signed(size)
    }

    private func decodeSequential(_ block: UnsafeMutablePointer<Int16>, _ predictor: inout Int, _ dc: JPEGHuffmanTable,
                                  _ ac: JPEGHuffmanTable, _ reader: inout JPEGBitReader) throws(ImageError) {
        // Kept to 16 bits like a JPEG coefficient, so hostile streams cannot grow it unboundedly.
        predictor = Int(Int16(truncatingIfNeeded: predictor + (try dcDifference(dc, &reader))))
        block[0] = Int16(predictor)
        var k = 1
        while k < 64 {
            let rs = try symbol(ac, &reader)
            let run = rs >> 4, size = rs & 15
            if size == 0 {
                if run != 15 { break }
                k += 16
                continue
            }
            k += run
            guard k < 64 else { throw .malformed(.jpeg, "AC coefficients run past the end of the block near byte \(reader.position)") }
            block[Self.naturalOrder[k]] = Int16(truncatingIfNeeded: reader.signed(size))
            k += 1
        }
    }

    private func decodeDCFirst(_ block: UnsafeMutablePointer<Int16>, _ predictor: inout Int, _ dc: JPEGHuffmanTable,
                               _ reader: inout JPEGBitReader) throws(ImageError) {
        predictor = Int(Int16(truncatingIfNeeded: predictor + (try dcDifference(dc, &reader))))
        block[0] = Int16(truncatingIfNeeded: predictor << scan.approximationLow)
    }

    private mutating func decodeACFirst(_ block: UnsafeMutablePointer<Int16>, _ ac: JPEGHuffmanTable,
                                        _ reader: inout JPEGBitReader) throws(ImageError) {
        if endOfBandRun > 0 {
            endOfBandRun -= 1
            return
        }
        var k = scan.spectralStart
        while k <= scan.spectralEnd {
            let rs = try symbol(ac, &reader)
            let run = rs >> 4, size = rs & 15
            if size == 0 {
                if run < 15 {
                    endOfBandRun = (1 << run) - 1 + reader.bits(run)
                    break
                }
                k += 16
                continue
            }
            k += run
            guard k <= scan.spectralEnd else { throw .malformed(.jpeg, "AC coefficients run past the spectral band near byte \(reader.position)") }
            block[Self.naturalOrder[k]] = Int16(truncatingIfNeeded: reader.signed(size) << scan.approximationLow)
            k += 1
        }
    }

    private mutating func decodeACRefine(_ block: UnsafeMutablePointer<Int16>, _ ac: JPEGHuffmanTable,
                                         _ reader: inout JPEGBitReader) throws(ImageError) {
        let plus = Int16(1 << scan.approximationLow)
        let minus = Int16(-1 << scan.approximationLow)
        // Adds one correction bit to a coefficient that is already non-zero.
        func refine(_ z: Int, _ reader: inout JPEGBitReader) {
            if reader.bits(1) == 1 && block[z] & plus == 0 {
                block[z] &+= block[z] >= 0 ? plus : minus
            }
        }
        var k = scan.spectralStart
        let end = scan.spectralEnd
        if endOfBandRun == 0 {
            while k <= end {
                let rs = try symbol(ac, &reader)
                var run = rs >> 4
                let size = rs & 15
                var value: Int16 = 0
                if size != 0 {
                    guard size == 1 else { throw .malformed(.jpeg, "AC refinement symbol of size \(size) near byte \(reader.position)") }
                    value = reader.bits(1) == 1 ? plus : minus
                } else if run != 15 {
                    endOfBandRun = (1 << run) + reader.bits(run)
                    break
                }
                // Skip `run` still-zero coefficients, refining the non-zero ones passed over;
                // the new value (if any) lands on the next zero coefficient.
                var placed = false
                while k <= end {
                    let z = Self.naturalOrder[k]
                    if block[z] != 0 {
                        refine(z, &reader)
                    } else {
                        if run == 0 {
                            if value != 0 { block[z] = value }
                            placed = true
                            k += 1
                            break
                        }
                        run -= 1
                    }
                    k += 1
                }
                if value != 0 && !placed {
                    throw .malformed(.jpeg, "AC refinement places a coefficient past the spectral band near byte \(reader.position)")
                }
            }
        }
        if endOfBandRun > 0 {
            while k <= end {
                let z = Self.naturalOrder[k]
                if block[z] != 0 { refine(z, &reader) }
                k += 1
            }
            endOfBandRun -= 1
        }
    }
}

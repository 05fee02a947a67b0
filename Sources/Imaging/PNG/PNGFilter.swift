/// PNG row filters (PNG spec 9): None, Sub, Up, Average, Paeth.
enum PNGFilter: UInt8, CaseIterable {
    case none = 0, sub = 1, up = 2, average = 3, paeth = 4

    @inline(__always)
    static func paethPredictor(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// Reverses this filter in place on `row` (`count` bytes), given the already
    /// reconstructed previous row (all zeros for the first row of a pass).
    static func unfilter(_ type: PNGFilter, row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int, stride: Int) {
        switch type {
        case .none:
            break
        case .sub:
            if count > stride {
                for i in stride..<count { row[i] &+= row[i - stride] }
            }
        case .up:
            for i in 0..<count { row[i] &+= previous[i] }
        case .average:
            for i in 0..<count {
                let left = i >= stride ? Int(row[i - stride]) : 0
                row[i] &+= UInt8((left + Int(previous[i])) >> 1)
            }
        case .paeth:
            for i in 0..<count {
                let a = i >= stride ? Int(row[i - stride]) : 0
                let c = i >= stride ? Int(previous[i - stride]) : 0
                row[i] &+= UInt8(paethPredictor(a, Int(previous[i]), c))
            }
        }
    }

    /// Applies this filter to `row` into `out`, given the previous unfiltered row.
    static func filter(_ type: PNGFilter, row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, out: UnsafeMutablePointer<UInt8>, count: Int, stride: Int) {
        for i in 0..<count {
            let a = i >= stride ? Int(row[i - stride]) : 0
            let b = Int(previous[i])
            let c = i >= stride ? Int(previous[i - stride]) : 0
            let predicted: Int
            switch type {
            case .none: predicted = 0
            case .sub: predicted = a
            case .up: predicted = b
            case .average: predicted = (a + b) >> 1
            case .paeth: predicted = paethPredictor(a, b, c)
            }
            out[i] = row[i] &- UInt8(truncatingIfNeeded: predicted)
        }
    }
}

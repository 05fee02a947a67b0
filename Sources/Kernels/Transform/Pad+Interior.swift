/// StableHLO's padding along one axis: `interior` copies of the pad value between adjacent
/// elements, then `low` before and `high` after; a negative edge removes that many elements of
/// the interior-padded axis instead.
public struct EdgeInteriorPad: Sendable, Equatable {
    public var low: Int
    public var high: Int
    public var interior: Int

    public init(low: Int, high: Int, interior: Int) {
        self.low = low
        self.high = high
        self.interior = interior
    }

    /// The padded extent of an axis of `extent` elements; negative when the crops remove more
    /// than there is.
    public func paddedExtent(_ extent: Int) -> Int {
        extent + max(extent - 1, 0) * interior + low + high
    }
}

extension Pad {
    /// STABLEHLO_PAD, DILATE and the base dilation and padding of STABLEHLO_REDUCE_WINDOW:
    /// output index `o` along an axis reads input element `(o - low) / (interior + 1)` when that
    /// division is exact and lands inside the axis, and is padding otherwise. Every padded
    /// extent must be non-negative (the caller checks, with overflow).
    public static func planEdgeInterior(inputShape: [Int], padding: [EdgeInteriorPad], elementSize: Int) -> IndexMapCopy {
        let strides = Shape.strides(inputShape)
        let outShape = zip(inputShape, padding).map { $1.paddedExtent($0) }
        let tables = outShape.indices.map { d in
            let step = padding[d].interior + 1, n = inputShape[d]
            return (0..<outShape[d]).map { o -> Int in
                let p = o - padding[d].low
                guard p >= 0, p % step == 0, p / step < n else { return -1 }
                return p / step * strides[d]
            }
        }
        return IndexMapCopy(outputShape: outShape, tables: tables, elementSize: elementSize)
    }
}

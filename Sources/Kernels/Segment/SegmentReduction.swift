/// How SEGMENT_SUM and the UNSORTED_SEGMENT_* ops combine the rows of one segment.
public enum SegmentReduction: Sendable, Equatable, CaseIterable {
    /// SUM: rows added; empty segments are 0.
    case sum
    /// PROD: rows multiplied; empty segments are 1.
    case product
    /// MAX: the largest value; empty segments hold the type's lowest value.
    case maximum
    /// MIN: the smallest value; empty segments hold the type's highest value.
    case minimum
}

/// Element types the segment reductions run on: they need the identities of every reduction.
public protocol SegmentElement: Comparable, Numeric, WrappingAddable {
    /// The lowest finite value (the identity of MAX as TFLite fills empty segments).
    static var segmentLowest: Self { get }
    /// The highest finite value (the identity of MIN).
    static var segmentHighest: Self { get }
    /// The product as TFLite computes it (integers wrap on overflow).
    func segmentMultiplying(_ other: Self) -> Self
}

extension Float: SegmentElement {
    /// `-greatestFiniteMagnitude`, what C++'s `numeric_limits<float>::lowest()` gives.
    public static var segmentLowest: Float { -.greatestFiniteMagnitude }
    /// `greatestFiniteMagnitude`.
    public static var segmentHighest: Float { .greatestFiniteMagnitude }
    /// `self * other`.
    public func segmentMultiplying(_ other: Float) -> Float { self * other }
}

extension Int32: SegmentElement {
    /// `Int32.min`.
    public static var segmentLowest: Int32 { .min }
    /// `Int32.max`.
    public static var segmentHighest: Int32 { .max }
    /// `self &* other`.
    public func segmentMultiplying(_ other: Int32) -> Int32 { self &* other }
}

extension Int64: SegmentElement {
    /// `Int64.min`.
    public static var segmentLowest: Int64 { .min }
    /// `Int64.max`.
    public static var segmentHighest: Int64 { .max }
    /// `self &* other`.
    public func segmentMultiplying(_ other: Int64) -> Int64 { self &* other }
}

/// SEGMENT_SUM and UNSORTED_SEGMENT_SUM/PROD/MAX/MIN. The data is viewed as `[ids, inner]`:
/// one id per row of `inner` elements; output row `s` combines every row whose id is `s`.
public enum SegmentReduce {
    /// Reduces rows into `segments` output rows. Rows with a negative id are skipped (as
    /// TFLite's unsorted segment ops do); integer sums and products wrap on overflow.
    /// - Throws: `KernelError.indexOutOfRange` for an id at or past `segments`.
    public static func run<T: SegmentElement, Index: FixedWidthInteger>(
        _ reduction: SegmentReduction, data: UnsafePointer<T>, ids: UnsafePointer<Index>, idCount: Int, inner: Int,
        segments: Int, output: UnsafeMutablePointer<T>) throws(KernelError) {
        let initial: T
        switch reduction {
        case .sum: initial = .zero
        case .product: initial = 1
        case .maximum: initial = .segmentLowest
        case .minimum: initial = .segmentHighest
        }
        output.update(repeating: initial, count: segments * inner)
        for r in 0..<idCount {
            let id = Int(truncatingIfNeeded: ids[r])
            if id < 0 { continue }
            guard id < segments else { throw .indexOutOfRange(index: id, bound: segments, position: r) }
            let src = data + r * inner, dst = output + id * inner
            switch reduction {
            case .sum: for j in 0..<inner { dst[j] = dst[j].addingWrapped(src[j]) }
            case .product: for j in 0..<inner { dst[j] = dst[j].segmentMultiplying(src[j]) }
            case .maximum: for j in 0..<inner where src[j] > dst[j] { dst[j] = src[j] }
            case .minimum: for j in 0..<inner where src[j] < dst[j] { dst[j] = src[j] }
            }
        }
    }
}

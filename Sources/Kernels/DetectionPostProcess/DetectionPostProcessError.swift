/// Why the post-processing could not run on the given data.
public enum DetectionPostProcessError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A decoded box has ymin > ymax or xmin > xmax (TFLite refuses such boxes too).
    case invertedBox(anchor: Int)

    /// A readable explanation.
    public var description: String {
        switch self {
        case .invertedBox(let a): return "decoded box of anchor \(a) has its minimum corner past its maximum"
        }
    }
}

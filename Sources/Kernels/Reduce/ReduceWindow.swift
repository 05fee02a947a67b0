/// How REDUCE_WINDOW combines the elements of a window.
public enum WindowReduction: Sendable, Equatable {
    case add, multiply, minimum, maximum
    /// Logical and / or: the result is 1 when all / any of the elements and the initial value
    /// are non-zero, else 0.
    case all, any
}

/// The element types REDUCE_WINDOW runs on (bool runs as int8, as in LiteRT).
public enum WindowElement: Sendable, Equatable {
    case int8, int16, int32, int64, uInt8, float32, float64
}

/// REDUCE_WINDOW over an input already dilated and padded: each output element folds the
/// initial value with the window's elements in row-major order, `acc = f(acc, x)`, as
/// LiteRT's reference kernel does (the order fixes float rounding). Maximum is
/// `acc >= x ? acc : x` and minimum `acc <= x ? acc : x`.
public struct ReduceWindowPlan: Sendable {
    public let outputShape: [Int]
    /// Input offsets (in elements) of the window's elements from its first one, row-major.
    let windowOffsets: [Int]
    /// Per output axis, the input offset of each window position's first element.
    let origins: [[Int]]

    /// Plans windows of `window` elements per axis, `strides` apart, their elements
    /// `dilations` apart (all at least 1). An axis shorter than its dilated window has no
    /// output positions.
    public init(inputShape: [Int], window: [Int], strides: [Int], dilations: [Int]) {
        let inputStrides = Shape.strides(inputShape)
        var shape: [Int] = []
        for d in inputShape.indices {
            let span = (window[d] - 1) * dilations[d] + 1
            shape.append(inputShape[d] < span ? 0 : (inputShape[d] - span) / strides[d] + 1)
        }
        outputShape = shape
        origins = shape.indices.map { d in (0..<shape[d]).map { $0 * strides[d] * inputStrides[d] } }
        // An empty output reads nothing; a window that fits its input has at most as many
        // elements as the input.
        var offsets: [Int] = []
        if Shape.elementCount(shape) > 0 {
            offsets = [0]
            for d in inputShape.indices {
                let step = dilations[d] * inputStrides[d]
                offsets = offsets.flatMap { base in (0..<window[d]).map { base + $0 * step } }
            }
        }
        windowOffsets = offsets
    }

    /// Runs the reduction on `input` (laid out as planned) with one initial value, writing
    /// the output.
    public func run(_ f: WindowReduction, element: WindowElement, input: UnsafeRawPointer, initial: UnsafeRawPointer,
                    output: UnsafeMutableRawPointer) {
        switch element {
        case .int8: run(f, input, initial, output, as: Int8.self)
        case .int16: run(f, input, initial, output, as: Int16.self)
        case .int32: run(f, input, initial, output, as: Int32.self)
        case .int64: run(f, input, initial, output, as: Int64.self)
        case .uInt8: run(f, input, initial, output, as: UInt8.self)
        case .float32: run(f, input, initial, output, as: Float.self)
        case .float64: run(f, input, initial, output, as: Double.self)
        }
    }

    private func run<T: HLOArithmetic & Comparable & ExpressibleByIntegerLiteral>(
        _ f: WindowReduction, _ input: UnsafeRawPointer, _ initial: UnsafeRawPointer, _ output: UnsafeMutableRawPointer, as _: T.Type
    ) {
        let x = input.assumingMemoryBound(to: T.self), y = output.assumingMemoryBound(to: T.self)
        let start = initial.loadUnaligned(as: T.self)
        switch f {
        case .add: fold(x, start, y) { T.hloAdd($0, $1) }
        case .multiply: fold(x, start, y) { T.hloMultiply($0, $1) }
        case .minimum: fold(x, start, y) { $0 <= $1 ? $0 : $1 }
        case .maximum: fold(x, start, y) { $0 >= $1 ? $0 : $1 }
        case .all: fold(x, start, y) { $0 != 0 && $1 != 0 ? 1 : 0 }
        case .any: fold(x, start, y) { $0 != 0 || $1 != 0 ? 1 : 0 }
        }
    }

    @inline(__always)
    private func fold<T>(_ input: UnsafePointer<T>, _ start: T, _ output: UnsafeMutablePointer<T>, _ f: (T, T) -> T) {
        let count = Shape.elementCount(outputShape)
        guard count > 0 else { return }
        let rank = outputShape.count
        windowOffsets.withUnsafeBufferPointer { offsets in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: max(rank, 1)) { index in
                index.initialize(repeating: 0)
                for o in 0..<count {
                    var base = 0
                    for d in 0..<rank { base &+= origins[d][index[d]] }
                    var acc = start
                    for w in offsets { acc = f(acc, input[base &+ w]) }
                    output[o] = acc
                    stepOdometer(index.baseAddress!, extents: outputShape, lastAxis: rank - 1)
                }
            }
        }
    }
}

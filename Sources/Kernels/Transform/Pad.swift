/// Padding amounts along one axis.
public struct PadAmount: Sendable, Equatable {
    /// Elements added before the first.
    public var before: Int
    /// Elements added after the last.
    public var after: Int

    /// Creates padding amounts (both non-negative; prepare checks).
    public init(before: Int, after: Int) {
        self.before = before
        self.after = after
    }
}

/// How MIRROR_PAD reflects.
public enum MirrorPadMode: Sendable, Equatable {
    /// Mirror around the edge element, which is not repeated (`[1 2 3]` -> `3 2 [1 2 3] 2 1`).
    case reflect
    /// Mirror including the edge element (`[1 2 3]` -> `2 1 [1 2 3] 3 2`).
    case symmetric
}

/// PAD, PADV2 and MIRROR_PAD on any element type.
public enum Pad {
    /// The padded shape.
    public static func outputShape(inputShape: [Int], paddings: [PadAmount]) -> [Int] {
        zip(inputShape, paddings).map { $0 + $1.before + $1.after }
    }

    /// PAD / PADV2: surrounds the input with copies of a pad value (zeros unless `run` is given
    /// one).
    public static func planConstant(inputShape: [Int], paddings: [PadAmount], elementSize: Int) -> IndexMapCopy {
        let strides = Shape.strides(inputShape)
        let outShape = outputShape(inputShape: inputShape, paddings: paddings)
        let tables = outShape.indices.map { d in
            (0..<outShape[d]).map { o -> Int in
                let i = o - paddings[d].before
                return i >= 0 && i < inputShape[d] ? i * strides[d] : -1
            }
        }
        return IndexMapCopy(outputShape: outShape, tables: tables, elementSize: elementSize)
    }

    /// MIRROR_PAD. Paddings must be below the axis extent for `.reflect` and at most the extent
    /// for `.symmetric` (prepare checks).
    public static func planMirror(inputShape: [Int], paddings: [PadAmount], mode: MirrorPadMode,
                                  elementSize: Int) -> IndexMapCopy {
        let strides = Shape.strides(inputShape)
        let outShape = outputShape(inputShape: inputShape, paddings: paddings)
        let shift = mode == .reflect ? 0 : 1
        let tables = outShape.indices.map { d in
            (0..<outShape[d]).map { o -> Int in
                let n = inputShape[d]
                var i = o - paddings[d].before
                if i < 0 { i = -i - shift } else if i >= n { i = 2 * n - 2 - i + shift }
                return Swift.min(Swift.max(i, 0), n - 1) * strides[d]
            }
        }
        return IndexMapCopy(outputShape: outShape, tables: tables, elementSize: elementSize)
    }

    /// PAD / PADV2 in one call: `padValue` is one element, or nil for zeros.
    public static func constant(input: UnsafeRawPointer, inputShape: [Int], paddings: [PadAmount],
                                padValue: UnsafeRawPointer?, elementSize: Int, output: UnsafeMutableRawPointer) {
        planConstant(inputShape: inputShape, paddings: paddings, elementSize: elementSize)
            .run(input: input, output: output, padValue: padValue)
    }

    /// MIRROR_PAD in one call.
    public static func mirror(input: UnsafeRawPointer, inputShape: [Int], paddings: [PadAmount],
                              mode: MirrorPadMode, elementSize: Int, output: UnsafeMutableRawPointer) {
        planMirror(inputShape: inputShape, paddings: paddings, mode: mode, elementSize: elementSize)
            .run(input: input, output: output)
    }
}

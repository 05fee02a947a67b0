/// TRANSPOSE on any element type: output axis `i` is input axis `permutation[i]`.
public enum Transpose {
    /// The output shape for a permutation (which prepare checks is a permutation of the axes).
    public static func outputShape(inputShape: [Int], permutation: [Int]) -> [Int] {
        permutation.map { inputShape[$0] }
    }

    /// The prepared copy that permutes the axes of an `inputShape` tensor.
    public static func plan(inputShape: [Int], permutation: [Int], elementSize: Int) -> IndexMapCopy {
        let strides = Shape.strides(inputShape)
        let outShape = outputShape(inputShape: inputShape, permutation: permutation)
        let tables = outShape.indices.map { d in (0..<outShape[d]).map { $0 * strides[permutation[d]] } }
        return IndexMapCopy(outputShape: outShape, tables: tables, elementSize: elementSize)
    }

    /// Copies `input` into `output` with its axes permuted (plans and runs in one call).
    public static func apply(input: UnsafeRawPointer, inputShape: [Int], permutation: [Int],
                             elementSize: Int, output: UnsafeMutableRawPointer) {
        plan(inputShape: inputShape, permutation: permutation, elementSize: elementSize).run(input: input, output: output)
    }
}

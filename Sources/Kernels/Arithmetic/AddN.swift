/// ADD_N: the elementwise sum of several tensors of one shape.
public enum AddN {
    /// Writes `inputs[0] + inputs[1] + ...` (summed in input order, integers wrapping) into `output`, which may
    /// alias any input.
    public static func run<T: WrappingAddable>(inputs: [UnsafePointer<T>], count: Int, output: UnsafeMutablePointer<T>) {
        for i in 0..<count {
            var sum = T.additiveZero
            for input in inputs { sum = sum.addingWrapped(input[i]) }
            output[i] = sum
        }
    }
}

/// BUCKETIZE: the bucket of each value given sorted boundaries. Bucket `i` holds values in
/// `[boundaries[i-1], boundaries[i])`, so the result is the number of boundaries less than or
/// equal to the value.
public enum Bucketize {
    /// Writes one bucket index per input value.
    /// - Precondition: `boundaries` is sorted ascending.
    public static func run<T: Comparable>(input: UnsafePointer<T>, count: Int, boundaries: [T],
                                          output: UnsafeMutablePointer<Int32>) {
        for i in 0..<count {
            let x = input[i]
            // Binary search for the first boundary greater than x.
            var lo = 0, hi = boundaries.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if x < boundaries[mid] { hi = mid } else { lo = mid + 1 }
            }
            output[i] = Int32(lo)
        }
    }

    /// Integer inputs compare with the float boundaries as C++ compares them: converted to float.
    public static func run<T: BinaryInteger>(integers input: UnsafePointer<T>, count: Int, boundaries: [Float],
                                             output: UnsafeMutablePointer<Int32>) {
        for i in 0..<count {
            var x = Float(input[i])
            run(input: &x, count: 1, boundaries: boundaries, output: output + i)
        }
    }
}

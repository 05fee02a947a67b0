#if TFLITE_ISA_MODULE
import Kernels
#endif
/// The int32 sum of each of `count` rows of `length` int8 values (`rows[r * length + k]`), which
/// the int8 kernels fold into their biases with the input zero point. Wrapping, like the sums
/// of the reference kernels. The inner loop reads through a row pointer so that it vectorises.
func int8RowSums(_ rows: UnsafePointer<Int8>, count: Int, length: Int) -> [Int32] {
    (0..<count).map { r in
        let row = rows + r * length
        var sum: Int32 = 0
        for k in 0..<length { sum &+= Int32(row[k]) }
        return sum
    }
}

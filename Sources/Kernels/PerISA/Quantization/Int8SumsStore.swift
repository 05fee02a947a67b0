#if TFLITE_ISA_MODULE
import Kernels
#endif
/// What an optimised int8 convolution does with the int32 sums of a tile, a vector of
/// ``int8LaneCount`` channels at a time: requantise them to int8 (``Int8Requantizer``) or scale
/// them to float (``HybridFloatStore``, for float activations with int8 weights). The tile
/// drivers are generic over it, so the int8 and hybrid layers share every loop up to the sums.
protocol Int8SumsStore {
    /// The output tensor's element type.
    associatedtype Element

    /// Converts `rowCount` vectors of sums of channel group `group`, `sumStride` bytes apart at
    /// `rows`, and stores the first `count` channels of each, `outStride` elements apart.
    func store(rows: UnsafeRawPointer, sumStride: Int, rowCount: Int, group: Int,
               to out: UnsafeMutablePointer<Element>, outStride: Int, count: Int)
}

extension Int8Requantizer: Int8SumsStore {}

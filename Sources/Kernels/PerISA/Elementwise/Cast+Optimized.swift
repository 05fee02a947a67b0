#if TFLITE_ISA_MODULE
import Kernels
#endif
extension Cast {
    /// CAST of uint8 or int8 (`signed`) values to float32, the cast at the front of detector
    /// models: the reference's typed loop compiled for this variant's vectors (a 320x320 RGB
    /// image took 20 us in 4-lane SSE2), split across `pool`.
    static func bytesToFloatOptimized(signed: Bool, input: UnsafeRawPointer, output: UnsafeMutablePointer<Float>,
                                      count: Int, pool: ThreadPool?) {
        ThreadPool.split(pool, count: count, work: count * ThreadPool.workPerElement) { range in
            if signed {
                let source = input.assumingMemoryBound(to: Int8.self)
                for i in range { output[i] = Float(source[i]) }
            } else {
                let source = input.assumingMemoryBound(to: UInt8.self)
                for i in range { output[i] = Float(source[i]) }
            }
        }
    }
}

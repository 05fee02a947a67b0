import TestSupport
import Testing
import Kernels

/// The variants' CAST of uint8 and int8 to float32 against the reference `Cast.apply`, over
/// every byte value, lengths around the vector widths, on one and three threads.
struct CastBytesToFloatTests {
    @Test(arguments: hostVariants, [1, 3])
    func matchesTheReference(variant: InstructionSet, threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        for count in [1, 7, 16, 17, 63, 256, 1000, 40_000] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37) }
            for signed in [false, true] {
                var reference = [Float](repeating: .nan, count: count), optimised = reference
                bytes.withUnsafeBytes { input in
                    reference.withUnsafeMutableBytes {
                        Cast.apply(input: input.baseAddress!, from: signed ? .int8 : .uInt8, output: $0.baseAddress!, to: .float32, count: count)
                    }
                    optimised.withUnsafeMutableBufferPointer {
                        kernels(variant).bytesToFloat(signed, input.baseAddress!, $0.baseAddress!, count, pool)
                    }
                }
                #expect(optimised == reference, "\(variant) \(signed ? "int8" : "uint8") x \(count)")
            }
        }
    }
}

import TestSupport
import Foundation
import Testing
import Kernels

@Suite struct RFFT2DTests {
    /// The 2-D DFT by its definition, summing over every input point at once.
    static func dft(_ x: [Float], rows: Int, columns: Int, height: Int, width: Int, k1: Int, k2: Int) -> (Double, Double) {
        var re = 0.0, im = 0.0
        for n1 in 0..<min(rows, height) {
            for n2 in 0..<min(columns, width) {
                let angle = -2 * Double.pi * (Double(k1 * n1) / Double(height) + Double(k2 * n2) / Double(width))
                re += Double(x[n1 * columns + n2]) * cos(angle)
                im += Double(x[n1 * columns + n2]) * sin(angle)
            }
        }
        return (re, im)
    }

    /// Same-size, cropped and zero-padded planes.
    @Test(arguments: [(8, 8, 8, 8), (4, 6, 4, 4), (3, 5, 4, 8), (1, 1, 2, 2), (16, 32, 16, 32), (5, 3, 1, 1)])
    func matchesTheDefinition(rows: Int, columns: Int, height: Int, width: Int) {
        var rng = SplitMix64(seed: 43)
        let planes = 2
        let x = rng.floats(planes * rows * columns)
        let fft = RFFT2D(height: height, width: width)
        let input = TestBuffer(x), out = TestBuffer(repeating: Float.nan, count: planes * height * fft.outputWidth * 2)
        let work = TestBuffer(repeating: Double.nan, count: fft.workCount)
        fft.run(input: input.constant, planes: planes, rows: rows, columns: columns, output: out.pointer, work: work.pointer)
        for p in 0..<planes {
            let plane = Array(x[p * rows * columns..<(p + 1) * rows * columns])
            for k1 in 0..<height {
                for k2 in 0..<fft.outputWidth {
                    let (re, im) = Self.dft(plane, rows: rows, columns: columns, height: height, width: width, k1: k1, k2: k2)
                    let at = 2 * ((p * height + k1) * fft.outputWidth + k2)
                    #expect(abs(Double(out.array[at]) - re) <= 1e-5 && abs(Double(out.array[at + 1]) - im) <= 1e-5)
                }
            }
        }
    }

    @Test func complexParts() {
        let z = TestBuffer<Float>([3, -4, 0, 2, -1, 0])
        let out = TestBuffer(repeating: Float.nan, count: 3)
        ComplexParts.run(.real, input: z.constant, count: 3, output: out.pointer)
        #expect(out.array == [3, 0, -1])
        ComplexParts.run(.imaginary, input: z.constant, count: 3, output: out.pointer)
        #expect(out.array == [-4, 2, 0])
        ComplexParts.run(.magnitude, input: z.constant, count: 3, output: out.pointer)
        #expect(out.array == [5, 2, 1])
    }
}

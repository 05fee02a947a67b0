import Testing
@testable import Kernels

/// The window, FFT auto-scale, real FFT and energy kernels on the vectors of TFLite Micro's
/// window_test.cc, fft_test.cc and energy_test.cc (signal/micro/kernels), which its kernels
/// produced; the int16 and int32 FFTs must match them exactly.
@Suite struct AudioFrontendSpectrumTests {
    func window(_ input: [Int16], _ window: [Int16], shift: Int) -> [Int16] {
        var out = [Int16](repeating: -1, count: input.count)
        input.withUnsafeBufferPointer { x in
            window.withUnsafeBufferPointer { w in
                out.withUnsafeMutableBufferPointer { AudioFrontend.applyWindow(input: x, window: w, shift: shift, output: $0) }
            }
        }
        return out
    }

    /// WindowTest.WindowTestLength16Shift12, and the same frame four times over
    /// (WindowTestLength16Shift12OuterDims4).
    @Test func windowShift12() {
        let x: [Int16] = (0..<16).map { Int16($0 * 0x100) }, w: [Int16] = (0..<16).map { Int16((15 - $0) * 0x100) }
        let golden: [Int16] = [0, 224, 416, 576, 704, 800, 864, 896, 896, 864, 800, 704, 576, 416, 224, 0]
        #expect(window(x, w, shift: 12) == golden)
        #expect(window(x + x + x + x, w, shift: 12) == golden + golden + golden + golden)
    }

    /// WindowTest.WindowTestLength32Shift8: products past int16 saturate.
    @Test func windowShift8Saturates() {
        let x: [Int16] = [1221, 1920, 9531, 2795, 1826, 371, 8446, 850, 3129, 8218, 4199, 8358, 205, 5268, 3263, 2849,
                          8398, 1381, 6305, 668, 8867, 4651, 9121, 6141, 1961, 3750, 8418, 8085, 3308, 1788, 1608, 4761]
        let w: [Int16] = [1323, 764, 9100, 4220, 1745, 9311, 178, 9442, 5676, 1817, 5433, 5837, 7635, 4539, 6548, 9690,
                          6097, 4275, 1523, 3694, 7506, 2797, 5153, 172, 2172, 4540, 6643, 7845, 1719, 7564, 1700, 5227]
        let golden: [Int16] = [6310, 5730, 32767, 32767, 12446, 13493, 5872, 31350, 32767, 32767, 32767, 32767, 6113,
                               32767, 32767, 32767, 32767, 23061, 32767, 9639, 32767, 32767, 32767, 4125, 16637, 32767,
                               32767, 32767, 22212, 32767, 10678, 32767]
        #expect(window(x, w, shift: 8) == golden)
    }

    func autoScale(_ input: [Int16]) -> ([Int16], Int32) {
        var out = [Int16](repeating: -1, count: input.count)
        let bits = input.withUnsafeBufferPointer { x in
            out.withUnsafeMutableBufferPointer { AudioFrontend.fftAutoScale(input: x, output: $0) }
        }
        return (out, bits)
    }

    /// FftTest.FftAutoScaleTestSmall and FftAutoScaleTestScaleBit; and the edges of TFLite
    /// Micro's arithmetic: silence scales by nothing, and so does a frame whose running
    /// maximum ends at -32768 (which wraps when negated).
    @Test func fftAutoScale() {
        let (small, smallBits) = autoScale([0x0000, 0x1111, 0x2222, 0x3333, 0x3333, 0x2222, 0x1111, 0x0000])
        #expect(small == [0x0000, 0x2222, 0x4444, 0x6666, 0x6666, 0x4444, 0x2222, 0x0000] && smallBits == 1)
        let (scaled, bits) = autoScale([238, 113, -88, -243, -5, -130, 159, -70])
        #expect(scaled == [30464, 14464, -11264, -31104, -640, -16640, 20352, -8960] && bits == 7)
        #expect(autoScale([0, 0, 0]).1 == 0)
        #expect(autoScale([-32768, 1]).1 == 14, "after -32768 the running maximum restarts, as in TFLite Micro")
        #expect(autoScale([1, -32768]).1 == 0)
    }

    func rfft<S: KissFFTScalar>(_ input: [S], length: Int, frames: Int = 1) -> [S] {
        let fft = AudioFrontend.RealFFT<S>(length: length)!
        let frameLength = input.count / frames
        var out = [S](repeating: .zero, count: frames * fft.outputCount)
        var scratch = [S](repeating: .zero, count: fft.scratchCount)
        input.withUnsafeBufferPointer { x in
            out.withUnsafeMutableBufferPointer { y in
                scratch.withUnsafeMutableBufferPointer {
                    fft.transform(frames: frames, input: x.baseAddress!, frameLength: frameLength,
                                  output: y.baseAddress!, scratch: $0.baseAddress!)
                }
            }
        }
        return out
    }

    /// FftTest.RfftTestSize64Int16 / Int32 / Float and RfftTestSize64Int32OuterDims4: an
    /// impulse has a flat spectrum, scaled down by the length in fixed point.
    @Test func rfftOfAnImpulse() {
        var impulse16 = [Int16](repeating: 0, count: 64)
        impulse16[0] = 16384
        var flat16 = [Int16](repeating: 0, count: 66)
        for k in 0..<33 { flat16[2 * k] = 256 }
        #expect(rfft(impulse16, length: 64) == flat16)
        let impulse32: [Int32] = impulse16.map { Int32($0) }, flat32: [Int32] = flat16.map { Int32($0) }
        let frames32: [Int32] = Array([[Int32]](repeating: impulse32, count: 4).joined())
        let spectra32: [Int32] = Array([[Int32]](repeating: flat32, count: 4).joined())
        #expect(rfft(frames32, length: 64, frames: 4) == spectra32)
        let flatFloat: [Float] = flat16.map { $0 == 0 ? 0 : 16384 }
        #expect(rfft(impulse16.map { Float($0) }, length: 64) == flatFloat)
    }

    /// FftTest.RfftTestSize512Int16: kiss-fft's Q15 rounding, exactly.
    @Test func rfftInt16MatchesTFLiteMicro() {
        let input = SignalVectors.integers("rfft_int16_512_input", as: Int16.self)
        let golden = SignalVectors.integers("rfft_int16_512_golden", as: Int16.self)
        #expect(input.count == 512 && golden.count == 514)
        #expect(rfft(input, length: 512) == golden)
    }

    /// FftTest.RfftTestSize512Int32.
    @Test func rfftInt32MatchesTFLiteMicro() {
        let input = SignalVectors.integers("rfft_int32_512_input", as: Int32.self)
        let golden = SignalVectors.integers("rfft_int32_512_golden", as: Int32.self)
        #expect(input.count == 512 && golden.count == 514)
        #expect(rfft(input, length: 512) == golden)
    }

    /// FftTest.RfftTestSize512Float, within its tolerance of 1e-5.
    @Test func rfftFloatMatchesTFLiteMicro() {
        let input = SignalVectors.floats("rfft_float_512_input"), golden = SignalVectors.floats("rfft_float_512_golden")
        #expect(input.count == 512 && golden.count == 514)
        let out = rfft(input, length: 512)
        let worst = zip(out, golden).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= 1e-5)
    }

    /// A frame shorter than the transform is zero-padded; lengths whose half has a radix
    /// kiss-fft's TFLite Micro build cannot run (7) or that are odd are refused.
    @Test func rfftPaddingAndLengths() {
        let frame: [Int16] = [1000, -2000, 3000, 4000, -500]
        #expect(rfft(frame, length: 16) == rfft(frame + [Int16](repeating: 0, count: 11), length: 16))
        #expect(AudioFrontend.RealFFT<Int16>(length: 480) != nil)
        #expect(AudioFrontend.RealFFT<Int16>(length: 14) == nil)
        #expect(AudioFrontend.RealFFT<Int16>(length: 63) == nil)
        #expect(AudioFrontend.RealFFT<Int16>(length: 2) == nil)
        #expect(KissFFT<Int16>.factors(of: 256) == [4, 64, 4, 16, 4, 4, 4, 1])
        #expect(KissFFT<Int16>.factors(of: 240) == [4, 60, 4, 15, 3, 5, 5, 1])
    }

    func energy(start: Int, end: Int) -> [UInt32] {
        let spectrum: [Int16] = Array(1...16)
        var out = [UInt32](repeating: 7, count: 8)
        spectrum.withUnsafeBufferPointer { x in
            out.withUnsafeMutableBufferPointer { AudioFrontend.energy(spectrum: x, start: start, end: end, output: $0) }
        }
        return out
    }

    /// EnergyTest.EnergyTestMiddle, EnergyTestStart and EnergyTestEnd; and full-scale parts,
    /// whose int32 sum wraps to 2^31 as in TFLite Micro.
    @Test func energyOfBins() {
        #expect(energy(start: 2, end: 4) == [0, 0, 61, 113, 0, 0, 0, 0])
        #expect(energy(start: 0, end: 4) == [5, 25, 61, 113, 0, 0, 0, 0])
        #expect(energy(start: 4, end: 8) == [0, 0, 0, 0, 181, 265, 365, 481])
        let loud: [Int16] = [-32768, -32768]
        var out: [UInt32] = [0]
        loud.withUnsafeBufferPointer { x in out.withUnsafeMutableBufferPointer { AudioFrontend.energy(spectrum: x, start: 0, end: 1, output: $0) } }
        #expect(out == [1 << 31])
    }
}

import Testing
@testable import Kernels

/// The filter bank, square root, spectral subtraction, PCAN and log kernels on the vectors of
/// TFLite Micro's filter_bank_test.cc, filter_bank_square_root_test.cc,
/// filter_bank_spectral_subtraction_test.cc, pcan_test.cc and filter_bank_log_test.cc
/// (signal/micro/kernels). All must match exactly.
@Suite struct AudioFrontendFilterBankTests {
    func filterBank(_ tag: String) -> (out: [UInt64], golden: [UInt64], problem: String?) {
        let v = { (name: String) in SignalVectors.integers("\(tag)_\(name)", as: Int16.self) }
        let spectrum = SignalVectors.integers("\(tag)_spectrum", as: UInt32.self)
        let golden = SignalVectors.integers("\(tag)_golden", as: UInt64.self)
        let weights = v("weights"), unweights = v("unweights"), starts = v("frequency_starts")
        let weightStarts = v("weight_starts"), widths = v("widths")
        var out = [UInt64](repeating: 0, count: golden.count)
        var problem: String?
        spectrum.withUnsafeBufferPointer { x in
            weights.withUnsafeBufferPointer { w in
                unweights.withUnsafeBufferPointer { u in
                    starts.withUnsafeBufferPointer { s in
                        weightStarts.withUnsafeBufferPointer { ws in
                            widths.withUnsafeBufferPointer { wd in
                                let tables = AudioFrontend.FilterBankTables(weights: w, unweights: u, frequencyStarts: s,
                                                                            weightStarts: ws, widths: wd)
                                problem = tables.problem(channels: golden.count, bins: x.count)
                                if problem == nil {
                                    out.withUnsafeMutableBufferPointer { AudioFrontend.filterBank(spectrum: x, tables: tables, output: $0) }
                                }
                            }
                        }
                    }
                }
            }
        }
        return (out, golden, problem)
    }

    /// FilterBankTest.FilterBankTest32Channel and FilterBankTest16Channel (whose first weight
    /// is negative: TFLite Micro's uint64 product wraps).
    @Test(arguments: ["filter_bank_32", "filter_bank_16"])
    func filterBankMatchesTFLiteMicro(tag: String) {
        let (out, golden, problem) = filterBank(tag)
        #expect(problem == nil && golden.count > 0)
        #expect(out == golden)
    }

    /// Tables that would read past the spectrum or the weights, or that are too short for
    /// the channel count, are reported before any read.
    @Test func filterBankTablesAreChecked() {
        let weights: [Int16] = [1, 2, 3], starts: [Int16] = [0, 1, 3], weightStarts: [Int16] = [0, 1, 2], widths: [Int16] = [1, 2, 2]
        func problem(channels: Int, bins: Int, starts: [Int16] = starts, weightStarts: [Int16] = weightStarts) -> String? {
            weights.withUnsafeBufferPointer { w in
                starts.withUnsafeBufferPointer { s in
                    weightStarts.withUnsafeBufferPointer { ws in
                        widths.withUnsafeBufferPointer { wd in
                            AudioFrontend.FilterBankTables(weights: w, unweights: w, frequencyStarts: s, weightStarts: ws, widths: wd)
                                .problem(channels: channels, bins: bins)
                        }
                    }
                }
            }
        }
        #expect(problem(channels: 2, bins: 5, weightStarts: [0, 1, 1]) == nil)
        #expect(problem(channels: 2, bins: 5)?.contains("weights 2..<4") == true)
        #expect(problem(channels: 2, bins: 4, weightStarts: [0, 1, 1])?.contains("bins 3..<5 of 4") == true)
        #expect(problem(channels: 2, bins: 5, starts: [0, -1, 3], weightStarts: [0, 1, 1]) != nil)
        #expect(problem(channels: 3, bins: 9)?.contains("4 needed") == true)
    }

    func squareRoot(_ input: [UInt64], shift: Int) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: input.count)
        input.withUnsafeBufferPointer { x in
            out.withUnsafeMutableBufferPointer { AudioFrontend.filterBankSquareRoot(input: x, scaleBits: shift, output: $0) }
        }
        return out
    }

    /// FilterBankSquareRootTest.FilterBankSquareRoot32Channel and 16Channel, and the
    /// rounding of the 32-bit path at its top.
    @Test func squareRootMatchesTFLiteMicro() {
        let x32: [UInt64] = [10528000193, 28362909357, 47577133750, 8466055850, 5842710800, 2350911449, 2989811430,
                             2646718839, 515262774, 276394561, 469831522, 55815334, 28232446, 11591835, 40329249,
                             67658028, 183446654, 323189165, 117473797, 41339272, 25846050, 12428673, 18670978, 22521722,
                             78477733, 54207503, 25150296, 43098592, 28211625, 15736687, 20990296, 17907031]
        #expect(squareRoot(x32, shift: 7) == [801, 1315, 1704, 718, 597, 378, 427, 401, 177, 129, 169, 58, 41, 26, 49, 64,
                                              105, 140, 84, 50, 39, 27, 33, 37, 69, 57, 39, 51, 41, 30, 35, 33])
        let x16: [UInt64] = [13051415151, 14932650877, 18954728418, 8730126017, 6529665275, 12952546517, 10314975609,
                             8919697835, 8053663348, 17231208421, 7366899760, 1372112200, 19953434807, 17012385332,
                             4710443222, 17765594053]
        #expect(squareRoot(x16, shift: 5) == [3570, 3818, 4302, 2919, 2525, 3556, 3173, 2951, 2804, 4102, 2682, 1157,
                                              4414, 4076, 2144, 4165])
        #expect(squareRoot([0, 1, 2, 3, 4, UInt64(UInt32.max), UInt64.max], shift: 0) == [0, 1, 1, 2, 2, 65535, UInt32.max])
    }

    /// The options of both of TFLite Micro's spectral subtraction tests.
    static func subtractionConfig() -> AudioFrontend.SpectralSubtractionConfig {
        .init(smoothing: 655, oneMinusSmoothing: 15729, alternateSmoothing: 655, alternateOneMinusSmoothing: 15729,
              minSignalRemaining: 819, smoothingBits: 0, spectralSubtractionBits: 14, clamping: false)
    }

    /// FilterBankSpectralSubtractionTest.*32Channel and *16Channel; the Reset variants run
    /// the same frame again on a zeroed estimate and expect the same outputs.
    @Test func spectralSubtractionMatchesTFLiteMicro() {
        let cases: [([UInt32], [UInt32], [UInt32])] = [
            ([322, 308, 210, 212, 181, 251, 403, 259, 65, 48, 76, 48, 50, 46, 53, 52, 112, 191, 136, 59, 70, 51, 39, 64,
              33, 44, 41, 49, 74, 107, 262, 479],
             [310, 296, 202, 204, 174, 241, 387, 249, 63, 47, 73, 47, 49, 45, 51, 50, 108, 184, 131, 57, 68, 49, 38, 62,
              32, 43, 40, 48, 72, 103, 252, 460],
             [12, 12, 8, 8, 7, 10, 16, 10, 2, 1, 3, 1, 1, 1, 2, 2, 4, 7, 5, 2, 2, 2, 1, 2, 1, 1, 1, 1, 2, 4, 10, 19]),
            ([393, 213, 408, 1, 361, 385, 386, 326, 170, 368, 368, 305, 152, 322, 213, 319],
             [378, 205, 392, 1, 347, 370, 371, 313, 164, 354, 354, 293, 146, 310, 205, 307],
             [15, 8, 16, 0, 14, 15, 15, 13, 6, 14, 14, 12, 6, 12, 8, 12]),
        ]
        for (input, golden, goldenEstimate) in cases {
            var estimate = [UInt32](repeating: 0, count: input.count), out = estimate
            input.withUnsafeBufferPointer { x in
                estimate.withUnsafeMutableBufferPointer { e in
                    out.withUnsafeMutableBufferPointer {
                        AudioFrontend.spectralSubtraction(input: x, config: Self.subtractionConfig(), noiseEstimate: e, output: $0)
                    }
                }
            }
            #expect(out == golden)
            #expect(estimate == goldenEstimate)
        }
    }

    /// The estimate carries over: a second identical frame subtracts more.
    @Test func spectralSubtractionKeepsItsEstimate() {
        let input: [UInt32] = [1000, 2000]
        var estimate: [UInt32] = [0, 0], first: [UInt32] = [0, 0], second: [UInt32] = [0, 0]
        for k in 0..<2 {
            input.withUnsafeBufferPointer { x in
                estimate.withUnsafeMutableBufferPointer { e in
                    if k == 0 {
                        first.withUnsafeMutableBufferPointer { AudioFrontend.spectralSubtraction(input: x, config: Self.subtractionConfig(), noiseEstimate: e, output: $0) }
                    } else {
                        second.withUnsafeMutableBufferPointer { AudioFrontend.spectralSubtraction(input: x, config: Self.subtractionConfig(), noiseEstimate: e, output: $0) }
                    }
                }
            }
        }
        #expect(estimate[0] > 39 && second[0] < first[0] && second[1] < first[1])
    }

    /// PcanTest.Mix1Ref1Case.
    @Test func pcanMatchesTFLiteMicro() {
        let input = SignalVectors.integers("pcan_input", as: UInt32.self)
        let noise = SignalVectors.integers("pcan_noise_estimate", as: UInt32.self)
        let table = SignalVectors.integers("pcan_gain_lut", as: Int16.self)
        let golden = SignalVectors.integers("pcan_golden", as: UInt32.self)
        #expect(table.count == AudioFrontend.pcanGainTableCount && golden.count == 40)
        var out = [UInt32](repeating: 0, count: input.count)
        input.withUnsafeBufferPointer { x in
            noise.withUnsafeBufferPointer { n in
                table.withUnsafeBufferPointer { t in
                    out.withUnsafeMutableBufferPointer { AudioFrontend.pcan(input: x, noiseEstimate: n, gainTable: t, snrShift: 6, output: $0) }
                }
            }
        }
        #expect(out == golden)
    }

    func log(_ input: [UInt32], scale: UInt32, correction: Int) -> [Int16] {
        var out = [Int16](repeating: -1, count: input.count)
        input.withUnsafeBufferPointer { x in
            out.withUnsafeMutableBufferPointer { AudioFrontend.filterBankLog(input: x, outputScale: scale, correctionBits: correction, output: $0) }
        }
        return out
    }

    /// FilterBankLogTest.FilterBankLogTest32Channel, and FilterBankLogTest16Channel, whose
    /// scale of 32768 makes TFLite Micro's 32-bit product wrap (14 gives 3434, not 32767).
    @Test func logMatchesTFLiteMicro() {
        let x32: [UInt32] = [29, 21, 29, 40, 19, 11, 13, 23, 13, 11, 25, 17, 5, 4, 46, 14, 17, 14, 20, 14, 10, 10, 15, 11,
                             17, 12, 15, 16, 19, 18, 6, 2]
        #expect(log(x32, scale: 1600, correction: 3) == [8715, 8198, 8715, 9229, 8038, 7164, 7431, 8344, 7431, 7164,
                                                        8477, 7860, 5902, 5545, 9453, 7550, 7860, 7550, 8120, 7550,
                                                        7011, 7011, 7660, 7164, 7860, 7303, 7660, 7763, 8038, 7952,
                                                        6194, 4436])
        let x16: [UInt32] = [48, 20, 19, 24, 35, 47, 23, 30, 31, 10, 48, 21, 46, 14, 18, 27]
        #expect(log(x16, scale: 32768, correction: 5) == [32767, 15121, 13440, 21095, 32767, 32767, 19701, 28407, 29482,
                                                         32767, 32767, 16720, 32767, 3434, 11669, 24955])
        #expect(log([0, 1, 2], scale: 1600, correction: 0) == [0, 0, 1109])
    }

    /// The log correction table equals TFLite Micro's `kLogLut` at the entries checked here.
    @Test func logCorrectionTable() {
        let table = AudioFrontend.logCorrection
        #expect(table.count == 129)
        #expect([table[0], table[1], table[2], table[57], table[64], table[127], table[128]] == [0, 224, 442, 5641, 5568, 142, 0])
    }
}

import Testing
@testable import TFLiteRuntime

/// TFLite Micro's signal ops on hostile models: options missing, of the wrong FlexBuffer type
/// or out of range, tensors of the wrong type or shape, sizes that would overflow or read out
/// of bounds. Each must be refused with an error naming the problem, never run.
@Suite struct AudioFrontendHostileTests {
    typealias Operand = SingleOpModel.Operand

    /// The message of the error building and allocating (and, with `invoke`, running once)
    /// a one-op model throws; nil when it succeeds.
    static func failure(_ code: String, _ options: [(String, FlexMap.Value)]?, inputs: [Operand], outputs: [Operand],
                        invoke: Bool = false) -> String? {
        do {
            let interpreter = try SingleOpModel.interpreter(custom: code, options: options.map(FlexMap.bytes),
                                                            inputs: inputs, outputs: outputs)
            if invoke { try interpreter.invoke() }
            return nil
        } catch {
            return "\(error)"
        }
    }

    static func expectFailure(_ code: String, _ options: [(String, FlexMap.Value)]?, inputs: [Operand], outputs: [Operand],
                              invoke: Bool = false, saying phrase: String) {
        let message = failure(code, options, inputs: inputs, outputs: outputs, invoke: invoke)
        #expect(message?.contains(phrase) == true, "\(code): \(message ?? "no error"), expected '\(phrase)'")
    }

    static let window: [Int16] = [Int16](repeating: 4096, count: 8)

    static func windowModel(_ options: [(String, FlexMap.Value)]?, input: Operand = .input([1, 8], .int16),
                            weights: Operand = .constant([8], .int16, window), output: Operand = .output([1, 8], .int16),
                            saying phrase: String) {
        expectFailure("SignalWindow", options, inputs: [input, weights], outputs: [output], saying: phrase)
    }

    @Test func optionsMissingOrMalformed() {
        Self.windowModel(nil, saying: "has no custom options")
        Self.windowModel([], saying: "option 'shift' is missing")
        Self.windowModel([("shift", .string("12"))], saying: "option 'shift'")
        Self.windowModel([("shift", .float(12))], saying: "option 'shift'")
        Self.windowModel([("shift", .int(32))], saying: "option 'shift' = 32 is outside 0...31")
        Self.windowModel([("shift", .int(-1))], saying: "is outside")
        Self.windowModel([("shift", .uint(UInt64.max))], saying: "option 'shift'")
        // Not a FlexBuffer map: a scalar root, and bytes whose trailer points nowhere.
        expectFailureOfRawOptions([7, FlexMap.packed(.int, width: 1), 1], saying: "not a FlexBuffer map")
        expectFailureOfRawOptions([1, 2, 3, 200, 0x24, 8], saying: "not a FlexBuffer map")
    }

    func expectFailureOfRawOptions(_ bytes: [UInt8], saying phrase: String) {
        do {
            _ = try SingleOpModel.interpreter(custom: "SignalWindow", options: bytes,
                                              inputs: [.input([1, 8], .int16), .constant([8], .int16, Self.window)],
                                              outputs: [.output([1, 8], .int16)])
            Issue.record("options \(bytes) were accepted")
        } catch {
            #expect("\(error)".contains(phrase), "\(error)")
        }
    }

    @Test func windowTensorsAreChecked() {
        let shift: [(String, FlexMap.Value)] = [("shift", .int(12))]
        Self.windowModel(shift, input: .input([1, 8], .float32), saying: "input must be INT16")
        Self.windowModel(shift, weights: .constant([2, 4], .int16, Self.window), saying: "window (input 1) must have rank 1")
        Self.windowModel(shift, input: .input([1, 6], .int16), saying: "must be as long as the window")
        Self.windowModel(shift, output: .output([1, 8], .int32), saying: "output must be INT16")
        Self.expectFailure("SignalWindow", shift, inputs: [.input([1, 8], .int16)], outputs: [.output([1, 8], .int16)],
                           saying: "expects 2...2 inputs")
    }

    static func rfft(_ options: [(String, FlexMap.Value)], input: Operand = .input([480], .int16),
                     output: Operand = .output([514], .int16), saying phrase: String) {
        expectFailure("SignalRfft", options, inputs: [input], outputs: [output], saying: phrase)
    }

    @Test func rfftLengthsAndTypesAreChecked() {
        Self.rfft([("T", .int(7))], saying: "option 'fft_length' is missing")
        Self.rfft([("fft_length", .int(512))], saying: "option 'T' is missing")
        Self.rfft([("T", .int(0)), ("fft_length", .int(512))], saying: "option 'T' says FLOAT32")
        Self.rfft([("T", .int(9)), ("fft_length", .int(512))], saying: "option 'T' = 9")
        Self.rfft([("T", .int(7)), ("fft_length", .int(256))], saying: "frames of 480 samples exceed fft_length 256")
        Self.rfft([("T", .int(7)), ("fft_length", .int(961))], saying: "it must be even")
        Self.rfft([("T", .int(7)), ("fft_length", .int(490))], saying: "product of 2, 3 and 5")
        Self.rfft([("T", .int(7)), ("fft_length", .int(0))], saying: "is outside")
        Self.rfft([("T", .int(7)), ("fft_length", .int(1 << 40))], saying: "is outside")
        // Twiddles and scratch for a 2^30-point transform exceed the memory limit.
        Self.rfft([("T", .int(7)), ("fft_length", .int(1 << 30))], saying: "over the limit")
        Self.rfft([("T", .int(7)), ("fft_length", .int(512))], input: .input([], .int16), saying: "rank 1 or more")
        Self.rfft([("T", .int(2)), ("fft_length", .int(512))], input: .input([480], .int32), output: .output([514], .int16),
                  saying: "output must be INT32")
    }

    @Test func energyRangeIsChecked() {
        let input = Operand.input([514], .int16), output = Operand.output([257], .uint32)
        Self.expectFailure("SignalEnergy", [("start_index", .int(5)), ("end_index", .int(258))], inputs: [input], outputs: [output],
                           saying: "option 'end_index' = 258 is outside 0...257")
        Self.expectFailure("SignalEnergy", [("start_index", .int(-5)), ("end_index", .int(200))], inputs: [input], outputs: [output],
                           saying: "option 'start_index' = -5")
        Self.expectFailure("SignalEnergy", [("start_index", .int(0)), ("end_index", .int(2))], inputs: [.input([5], .int16)],
                           outputs: [output], saying: "(real, imaginary) pairs")
        Self.expectFailure("SignalEnergy", [("start_index", .int(0)), ("end_index", .int(2))], inputs: [input],
                           outputs: [.output([257], .int32)], saying: "output must be UINT32")
        // A start past the end computes nothing, as in TFLite Micro.
        #expect(Self.failure("SignalEnergy", [("start_index", .int(9)), ("end_index", .int(3))], inputs: [input], outputs: [output],
                             invoke: true) == nil)
    }

    static func filterBankInputs(frequencyStarts: [Int16] = [0, 1, 3], weightStarts: [Int16] = [0, 1, 3],
                                 widths: [Int16] = [1, 2, 2], runTimeTables: Bool = false) -> [Operand] {
        let weights: [Int16] = [100, 200, 300, 400, 500]
        func table(_ values: [Int16]) -> Operand {
            runTimeTables ? .input([values.count], .int16) : .constant([values.count], .int16, values)
        }
        return [.input([6], .uint32), table(weights), table(weights), table(frequencyStarts), table(weightStarts), table(widths)]
    }

    @Test func filterBankTablesAreChecked() {
        let channels: [(String, FlexMap.Value)] = [("num_channels", .int(2))], output = Operand.output([2], .uint64)
        #expect(Self.failure("SignalFilterBank", channels, inputs: Self.filterBankInputs(), outputs: [output], invoke: true) == nil)
        Self.expectFailure("SignalFilterBank", channels, inputs: Self.filterBankInputs(frequencyStarts: [0, 1, 5]),
                           outputs: [output], saying: "channel 2 reads bins 5..<7 of 6")
        Self.expectFailure("SignalFilterBank", channels, inputs: Self.filterBankInputs(weightStarts: [0, 1, 4]),
                           outputs: [output], saying: "channel 2 reads weights 4..<6 of 5")
        Self.expectFailure("SignalFilterBank", channels, inputs: Self.filterBankInputs(frequencyStarts: [0, -1, 3]),
                           outputs: [output], saying: "channel 1 reads bins -1..<1")
        Self.expectFailure("SignalFilterBank", [("num_channels", .int(3))], inputs: Self.filterBankInputs(),
                           outputs: [output], saying: "4 needed for 3 channels")
        // A channel count whose tables would not fit any memory.
        Self.expectFailure("SignalFilterBank", [("num_channels", .int(Int64(Int32.max)))], inputs: Self.filterBankInputs(),
                           outputs: [output], saying: "is outside")
        Self.expectFailure("SignalFilterBank", [("num_channels", .int(Int64(Int32.max) - 1))], inputs: Self.filterBankInputs(),
                           outputs: [output], saying: "needed for 2147483646 channels")
        var inputs = Self.filterBankInputs()
        inputs[2] = .constant([5], .uint16, [UInt16](repeating: 1, count: 5))
        Self.expectFailure("SignalFilterBank", channels, inputs: inputs, outputs: [output], saying: "unweights (input 2) must be INT16")
    }

    /// Tables computed at run time are checked at every invocation (here: zero-filled
    /// inputs are in range, a bin start past the spectrum is not).
    @Test func runTimeFilterBankTablesAreCheckedWhenRun() throws {
        let interpreter = try SingleOpModel.interpreter(
            custom: "SignalFilterBank", options: FlexMap.bytes([("num_channels", .int(2))]),
            inputs: Self.filterBankInputs(runTimeTables: true), outputs: [.output([2], .uint64)])
        try interpreter.invoke()
        try interpreter.copy([Int16(0), 1, 9], toInputAt: 3)
        try interpreter.copy([Int16(1), 1, 1], toInputAt: 5)
        do {
            try interpreter.invoke()
            Issue.record("a channel reading past the spectrum ran")
        } catch {
            #expect("\(error)".contains("channel 2 reads bins 9..<10 of 6"), "\(error)")
        }
    }

    @Test func squareRootShiftIsCheckedWhenRun() throws {
        let interpreter = try SingleOpModel.interpreter(custom: "SignalFilterBankSquareRoot", options: nil,
                                                        inputs: [.input([4], .uint64), .input([], .int32)],
                                                        outputs: [.output([4], .uint32)])
        try interpreter.copy([Int32(40)], toInputAt: 1)
        #expect(throws: InterpreterError.invokeFailed(node: 0, op: "SignalFilterBankSquareRoot",
                                                      reason: "scale bits 40 are outside 0..<32")) { try interpreter.invoke() }
        Self.expectFailure("SignalFilterBankSquareRoot", nil, inputs: [.input([4], .uint64), .input([1], .int32)],
                           outputs: [.output([4], .uint32)], saying: "scale bits (input 1) must have rank 0")
    }

    static let subtraction: [(String, FlexMap.Value)] = [
        ("alternate_one_minus_smoothing", .int(15401)), ("alternate_smoothing", .int(983)), ("clamping", .bool(false)),
        ("min_signal_remaining", .int(819)), ("num_channels", .int(4)), ("one_minus_smoothing", .int(15975)),
        ("smoothing", .int(409)), ("smoothing_bits", .int(10)), ("spectral_subtraction_bits", .int(14)),
    ]

    static func subtraction(replacing key: String, with value: FlexMap.Value?) -> [(String, FlexMap.Value)] {
        subtraction.compactMap { $0.0 == key ? value.map { (key, $0) } : $0 }
    }

    @Test func spectralSubtractionOptionsAreChecked() {
        let inputs: [Operand] = [.input([4], .uint32)], outputs: [Operand] = [.output([4], .uint32), .output([4], .uint32)]
        #expect(Self.failure("SignalFilterBankSpectralSubtraction", Self.subtraction, inputs: inputs, outputs: outputs, invoke: true) == nil)
        Self.expectFailure("SignalFilterBankSpectralSubtraction", Self.subtraction(replacing: "clamping", with: nil),
                           inputs: inputs, outputs: outputs, saying: "option 'clamping' is missing")
        Self.expectFailure("SignalFilterBankSpectralSubtraction", Self.subtraction(replacing: "clamping", with: .string("no")),
                           inputs: inputs, outputs: outputs, saying: "option 'clamping'")
        Self.expectFailure("SignalFilterBankSpectralSubtraction", Self.subtraction(replacing: "smoothing_bits", with: .int(32)),
                           inputs: inputs, outputs: outputs, saying: "option 'smoothing_bits' = 32")
        Self.expectFailure("SignalFilterBankSpectralSubtraction",
                           Self.subtraction(replacing: "spectral_subtraction_bits", with: .int(64)),
                           inputs: inputs, outputs: outputs, saying: "option 'spectral_subtraction_bits' = 64")
        Self.expectFailure("SignalFilterBankSpectralSubtraction", Self.subtraction(replacing: "smoothing", with: .int(1 << 33)),
                           inputs: inputs, outputs: outputs, saying: "option 'smoothing'")
        Self.expectFailure("SignalFilterBankSpectralSubtraction", Self.subtraction(replacing: "num_channels", with: .int(5)),
                           inputs: inputs, outputs: outputs, saying: "must hold num_channels = 5 values")
        Self.expectFailure("SignalFilterBankSpectralSubtraction", Self.subtraction, inputs: inputs,
                           outputs: [.output([4], .uint32)], saying: "expects 2...2 outputs")
    }

    @Test func pcanTensorsAreChecked() {
        let shift: [(String, FlexMap.Value)] = [("snr_shift", .int(6))]
        let lut = Operand.constant([125], .int16, [Int16](repeating: 1, count: 125))
        let output = Operand.output([4], .uint32)
        #expect(Self.failure("SignalPCAN", shift, inputs: [.input([4], .uint32), .input([4], .uint32), lut], outputs: [output],
                             invoke: true) == nil)
        Self.expectFailure("SignalPCAN", shift,
                           inputs: [.input([4], .uint32), .input([4], .uint32), .constant([124], .int16, [Int16](repeating: 1, count: 124))],
                           outputs: [output], saying: "gain table holds 124 entries, 125 needed")
        Self.expectFailure("SignalPCAN", shift, inputs: [.input([4], .uint32), .input([3], .uint32), lut], outputs: [output],
                           saying: "must match the input")
        Self.expectFailure("SignalPCAN", [("snr_shift", .int(64))], inputs: [.input([4], .uint32), .input([4], .uint32), lut],
                           outputs: [output], saying: "option 'snr_shift' = 64")
    }

    @Test func logOptionsAreChecked() {
        let inputs: [Operand] = [.input([4], .uint32)], outputs: [Operand] = [.output([4], .int16)]
        Self.expectFailure("SignalFilterBankLog", [("output_scale", .int(64))], inputs: inputs, outputs: outputs,
                           saying: "option 'input_correction_bits' is missing")
        Self.expectFailure("SignalFilterBankLog", [("input_correction_bits", .int(40)), ("output_scale", .int(64))],
                           inputs: inputs, outputs: outputs, saying: "option 'input_correction_bits' = 40")
        Self.expectFailure("SignalFilterBankLog", [("input_correction_bits", .int(3)), ("output_scale", .int(-1))],
                           inputs: inputs, outputs: outputs, saying: "option 'output_scale' = -1")
        Self.expectFailure("SignalFilterBankLog", [("input_correction_bits", .int(3)), ("output_scale", .int(64))],
                           inputs: inputs, outputs: [.output([4], .uint16)], saying: "output must be INT16")
        Self.expectFailure("SignalFilterBankLog", [("input_correction_bits", .int(3)), ("output_scale", .int(64))],
                           inputs: [.input([2, 2], .uint32)], outputs: outputs, saying: "input must have rank 1")
    }

    @Test func autoScaleTensorsAreChecked() {
        Self.expectFailure("SignalFftAutoScale", nil, inputs: [.input([1, 480], .int16)],
                           outputs: [.output([480], .int16), .output([], .int32)], saying: "input must have rank 1")
        Self.expectFailure("SignalFftAutoScale", nil, inputs: [.input([480], .int16)],
                           outputs: [.output([480], .int16), .output([], .int16)], saying: "the scale output (1) must be INT32")
    }
}

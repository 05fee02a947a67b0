import Testing
import TestSupport
import Kernels
import TFLiteRuntime

/// Interpreters on each instruction-set variant this CPU runs: the options pick it, and the
/// int8 results are the same bits on every variant.
@Suite struct InstructionSetTests {
    /// Output 0 of `caseName` on `isa`, and the variant the interpreter took.
    private func run(_ caseName: String, on isa: InstructionSet) throws -> ([UInt8], InstructionSet) {
        let c = try #require(try CorpusCase.all().first { $0.caseName == caseName })
        var options = Interpreter.Options(threadCount: 2)
        options.instructionSet = isa
        let interpreter = try Interpreter(modelPath: Fixtures.corpusFile(c.model).path, options: options)
        try interpreter.allocateTensors()
        for (i, input) in c.inputs.enumerated() {
            try interpreter.copy(NPYArray(contentsOf: Fixtures.corpusFile(input.file).path).data, toInputAt: i)
        }
        try interpreter.invoke()
        return (try interpreter.output(at: 0).data, interpreter.instructionSet)
    }

    @Test func int8ResultsAreIdenticalOnEveryVariant() throws {
        let supported = Interpreter.supportedInstructionSets
        let (first, _) = try run("mobilenet_v2_int8__chelsea", on: .baseline)
        for isa in supported {
            let (output, used) = try run("mobilenet_v2_int8__chelsea", on: isa)
            #expect(used == isa)
            #expect(output == first, "\(isa)")
        }
    }

    @Test func optionsNeverRaiseTheVariantAboveTheCPU() throws {
        let (_, used) = try run("mobilenet_v2_int8__chelsea", on: .avx512vnni)
        #expect(used == Interpreter.supportedInstructionSets.last)
    }
}

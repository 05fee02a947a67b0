import Testing
import Kernels
import KernelSelection

/// The choice of instruction-set variant: from CPU features to the widest variant whose every
/// required feature is present, never above what the CPU reports.
@Suite struct KernelSelectionTests {
    static let haswell: Set<String> = ["sse2", "sse4_2", "avx", "avx2", "fma", "f16c", "bmi1", "bmi2", "movbe", "popcnt", "abm"]
    static let skylakeServer = haswell.union(["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"])

    /// The widest variant a CPU with `features` runs.
    private func widest(_ features: Set<String>) -> InstructionSet {
        InstructionSet.allCases.last { $0.isSupported(by: features) }!
    }

    @Test func widestVariantNeedsEveryFeature() {
        #expect(widest([]) == .baseline)
        #expect(widest(["sse2", "sse4_2", "popcnt"]) == .baseline)   // Nehalem
        #expect(widest(Self.haswell) == .avx2)
        // AVX2 without one of the scalar extensions haswell code may use is not enough.
        #expect(widest(Self.haswell.subtracting(["bmi2"])) == .baseline)
        #expect(widest(Self.skylakeServer) == .avx512)
        #expect(widest(Self.skylakeServer.union(["avx512_vnni"])) == .avx512vnni)
        // VNNI without the rest of AVX-512 (as on AVX-VNNI parts) stays at AVX2.
        #expect(widest(Self.haswell.union(["avx512_vnni", "avx512f"])) == .avx2)
    }

    @Test func namesRoundTrip() {
        for isa in InstructionSet.allCases { #expect(InstructionSet(name: isa.description) == isa) }
        #expect(InstructionSet(name: "avx512VNNI") == nil)
    }

    @Test func parsesTheFlagsLineOfCpuinfo() {
        let text = "processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu sse2 avx avx2 fma\nbugs\t\t: spectre\n"
        #expect(CPUFeatures.parse(cpuinfo: text[...]) == ["fpu", "sse2", "avx", "avx2", "fma"])
        #expect(CPUFeatures.parse(cpuinfo: "processor\t: 0\n"[...]).isEmpty)
    }

    @Test func supportedVariantsAreWhatTheCPUHas() {
        let supported = KernelSelection.supported.map(\.instructionSet)
        #expect(supported.first == .baseline)
        #expect(supported == supported.sorted())
        for kernels in KernelSelection.supported {
            #expect(kernels.instructionSet.isSupported(by: CPUFeatures.detected))
        }
        // Each table is the one its instruction set names.
        #expect(supported == KernelSelection.compiledInstructionSets.filter { $0.isSupported(by: CPUFeatures.detected) })
        #expect(supported.contains(KernelSelection.best.instructionSet))
        // Asking for more than the CPU has gives the widest it runs, never more.
        #expect(KernelSelection.kernels(atMost: .avx512vnni).instructionSet == supported.last)
        #expect(KernelSelection.kernels(atMost: .baseline).instructionSet == .baseline)
        #if arch(x86_64)
        #expect(KernelSelection.compiledInstructionSets == InstructionSet.allCases)
        #endif
    }
}

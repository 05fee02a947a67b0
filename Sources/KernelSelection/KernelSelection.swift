import Kernels
#if canImport(KernelsAVX2)
import KernelsAVX2
#endif
#if canImport(KernelsAVX512)
import KernelsAVX512
#endif
#if canImport(KernelsAVX512VNNI)
import KernelsAVX512VNNI
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Picks the variant of the optimised kernels for this CPU: the only place that names the
/// variant modules, and the check that keeps code compiled for a wider instruction set from
/// running on a CPU without it.
public enum KernelSelection {
    /// Every variant compiled into this build, lowest first (the baseline alone off x86-64), and
    /// how to get its table. Getting a variant's table runs its module's initialiser, code
    /// compiled for its instruction set (which copies the table with vector moves of that
    /// width), so a table is asked for only once the CPU is known to run it.
    private static let variants: [(instructionSet: InstructionSet, kernels: @Sendable () -> OptimizedKernels)] = {
        var all: [(InstructionSet, @Sendable () -> OptimizedKernels)] = [(.baseline, { OptimizedKernels.baseline })]
        #if canImport(KernelsAVX2)
        all.append((.avx2, { KernelsAVX2.optimizedKernels }))
        #endif
        #if canImport(KernelsAVX512)
        all.append((.avx512, { KernelsAVX512.optimizedKernels }))
        #endif
        #if canImport(KernelsAVX512VNNI)
        all.append((.avx512vnni, { KernelsAVX512VNNI.optimizedKernels }))
        #endif
        return all
    }()

    /// The instruction sets of the variants compiled into this build, lowest first.
    public static let compiledInstructionSets: [InstructionSet] = variants.map(\.instructionSet)

    /// The compiled variants this CPU can run, lowest first.
    public static let supported: [OptimizedKernels] = variants
        .filter { $0.instructionSet.isSupported(by: CPUFeatures.detected) }
        .map { $0.kernels() }

    /// The widest variant this CPU runs, lowered to the one named by the `TFLITE_ISA`
    /// environment variable when that is set (`baseline`, `avx2`, `avx512`, `avx512vnni`).
    /// A request above what the CPU has, or one this build lacks, gets the widest supported
    /// variant below it: the variable can lower the choice, never raise it.
    public static let best: OptimizedKernels = kernels(atMost: requestedInstructionSet() ?? InstructionSet.allCases.last!)

    /// The widest supported variant at or below `instructionSet`.
    public static func kernels(atMost instructionSet: InstructionSet) -> OptimizedKernels {
        supported.last { $0.instructionSet <= instructionSet } ?? supported[0]
    }

    /// The instruction set `TFLITE_ISA` names, or nil when it is unset or names none.
    public static func requestedInstructionSet() -> InstructionSet? {
        guard let value = getenv("TFLITE_ISA") else { return nil }
        return InstructionSet(name: String(cString: value))
    }
}

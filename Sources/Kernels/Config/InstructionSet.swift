/// The instruction-set variants the optimised kernels are compiled for, lowest first.
///
/// Each variant is the same source (`Sources/Kernels/PerISA`) compiled in a module of its own
/// with its own `-target-cpu`: `Kernels` itself holds the baseline, `KernelsAVX2`,
/// `KernelsAVX512` and `KernelsAVX512VNNI` the others (x86-64 only). `KernelSelection` picks one
/// from the detected CPU; code compiled for a wider set never runs before that check.
public enum InstructionSet: Int, CaseIterable, Comparable, Sendable, CustomStringConvertible {
    /// Whatever the platform guarantees: SSE2 on x86-64, NEON on arm64.
    case baseline
    /// AVX2 and FMA with 256-bit vectors (`-target-cpu haswell`).
    case avx2
    /// AVX-512 F/BW/DQ/VL with 512-bit vectors (`-target-cpu skylake-avx512`).
    case avx512
    /// AVX-512 with VNNI, whose `vpdpwssd` multiplies and accumulates the int8 kernels' int16
    /// pairs in one instruction (`-target-cpu cascadelake`).
    case avx512vnni

    /// The name used by `TFLITE_ISA` and printed by the tools.
    public var description: String {
        switch self {
        case .baseline: "baseline"
        case .avx2: "avx2"
        case .avx512: "avx512"
        case .avx512vnni: "avx512vnni"
        }
    }

    /// The variant named `name` (as printed by ``description``), or nil.
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.description == name }) else { return nil }
        self = match
    }

    public static func < (a: InstructionSet, b: InstructionSet) -> Bool { a.rawValue < b.rawValue }

    /// The CPU features (as `/proc/cpuinfo` names them) the variant's code may use: everything
    /// its `-target-cpu` lets the compiler emit, not just the vector extension it is named after.
    public var requiredFeatures: [String] {
        switch self {
        case .baseline: []
        case .avx2: ["avx", "avx2", "fma", "f16c", "bmi1", "bmi2", "movbe", "popcnt", "abm"]
        case .avx512: InstructionSet.avx2.requiredFeatures + ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"]
        case .avx512vnni: InstructionSet.avx512.requiredFeatures + ["avx512_vnni"]
        }
    }

    /// Whether a CPU with `features` (by their `/proc/cpuinfo` names) runs this variant's code.
    public func isSupported(by features: Set<String>) -> Bool {
        requiredFeatures.allSatisfy(features.contains)
    }
}

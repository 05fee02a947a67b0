/// What a family's planning function may choose from: the reference kernels alone (to check
/// the optimised ones against them), or also one instruction-set variant's optimised kernels.
/// The runtime makes this value once per interpreter from its options and hands it to every
/// plan, so that no op decides on its own which kernels it may use.
public enum KernelChoice: Sendable {
    case referenceOnly
    case optimized(OptimizedKernels)

    /// The variant's optimised kernels; nil when only the reference kernels may run.
    public var optimizedKernels: OptimizedKernels? {
        guard case .optimized(let kernels) = self else { return nil }
        return kernels
    }
}

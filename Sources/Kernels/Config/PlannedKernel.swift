/// The kernel a family's planning function picked for one node: the name profiles and
/// `tflite inspect` print (`<family>.<type>.<path>`, then `/<instruction set>` for a kernel of
/// a per-ISA copy), the scratch memory it needs, and the function that runs it. Shapes,
/// parameters and packed weights are captured by the plan; a run passes the tensors' data
/// (`Operands`) and the thread pool.
public struct PlannedKernel<Operands> {
    public let name: String
    /// Bytes of scratch memory `run` needs (for the thread count given to the plan).
    public let scratchBytes: Int
    public let run: (Operands, ThreadPool) -> Void
    /// Whether the plan copied (packed) the constant weights it was given and `run` never
    /// reads its filter operand: the caller need not keep the planned weights alive.
    public let packedItsWeights: Bool

    public init(name: String, scratchBytes: Int = 0, packedItsWeights: Bool = false,
                run: @escaping (Operands, ThreadPool) -> Void) {
        self.name = name
        self.scratchBytes = scratchBytes
        self.packedItsWeights = packedItsWeights
        self.run = run
    }
}

/// What a plan knows at prepare of an operand that decides between kernels: absent, constant
/// (its data, which a kernel may pack), or computed at run time.
public enum PlannedOperand<Element> {
    case absent
    case constant(UnsafePointer<Element>)
    case computed

    /// The data of a constant operand.
    public var constant: UnsafePointer<Element>? {
        guard case .constant(let data) = self else { return nil }
        return data
    }

    /// Whether a kernel that captures the operand at prepare can run: absent or constant.
    public var isKnown: Bool {
        if case .computed = self { return false }
        return true
    }
}

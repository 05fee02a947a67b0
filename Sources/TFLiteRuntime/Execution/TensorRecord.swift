import Kernels

/// What the runtime knows about one tensor of a subgraph: its description from the model,
/// its current shape, and where its bytes live.
struct TensorRecord {
    enum Storage {
        /// Read in place from the model's buffer (weights); never written.
        case constant(UnsafeRawPointer)
        /// A slot of the shared arena, planned from the tensor's lifetime.
        case arena(offset: Int)
        /// Memory of its own: folded constants, variables, unaligned weights copied once.
        case owned(AlignedBuffer)
        /// Not used by any node, or not yet planned.
        case none
    }

    let name: String
    /// The type in the model, except for outputs of the ops that take their inputs' type at
    /// prepare whatever the model declares (``OutputTypeRule/retypedAs(input:)``).
    var type: DataType
    /// The shape in the model; reset to this before each allocation pass.
    let modelShape: [Int]
    let shapeSignature: [Int]?
    let quantization: QuantizationParameters?
    /// Per-block scales of blockwise-quantised weights (int4 transformer weights).
    let blockwise: BlockwiseQuantization?
    let isVariable: Bool
    /// True for tensors whose bytes come from the model file (weights).
    let isWeight: Bool
    /// The current shape (after resizes and shape inference).
    var shape: [Int]
    var storage: Storage = .none
    /// True for weights and for tensors folded at prepare.
    var isConstant: Bool
    /// True for tensors whose shape is only known at run time (value-dependent outputs and
    /// everything computed from them); they live in memory of their own, resized as needed.
    var isDynamic = false
    /// For a string tensor, the size of its packed bytes (``PackedStrings``), which its shape
    /// does not determine; nil while it holds none. String tensors other than weights are
    /// always dynamic: they live in memory of their own, rewritten whole by each writer.
    var stringByteCount: Int?

    init(name: String, type: DataType, modelShape: [Int], shapeSignature: [Int]?,
         quantization: QuantizationParameters?, blockwise: BlockwiseQuantization? = nil, isVariable: Bool, isWeight: Bool) {
        self.name = name
        self.type = type
        self.modelShape = modelShape
        self.shapeSignature = shapeSignature
        self.quantization = quantization
        self.blockwise = blockwise
        self.isVariable = isVariable
        self.isWeight = isWeight
        self.shape = modelShape
        self.isConstant = isWeight
    }

    /// Bytes the current shape needs (for strings, the packed bytes held), or nil when the
    /// type has no fixed element size or the product overflows.
    var byteCount: Int? {
        if type == .string { return stringByteCount }
        guard let count = Shape.checkedElementCount(shape) else { return nil }
        // Packed int4 values, two to a byte, as int4 tensors the graph computes are stored.
        if type == .int4 { return count / 2 + count % 2 }
        // A resource tensor holds the 32-bit id of a variable.
        guard let size = type == .resource ? 4 : type.byteSize else { return nil }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
        return overflow ? nil : bytes
    }

    var elementCount: Int { shape.reduce(1, *) }
}

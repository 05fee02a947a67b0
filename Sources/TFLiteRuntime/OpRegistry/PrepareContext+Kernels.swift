import Kernels

extension PrepareContext {
    /// What this node's kernel is planned with; a family with a choice of kernels passes it to
    /// its planning function (`Conv2D.Quantized.plan`, ...), which picks.
    var kernelChoice: KernelChoice { executor.kernelChoice }

    /// The node's kernel name: the one its prepare step set (a planned kernel's), else the one
    /// rule for an op's only kernel, `<family>.<type>.reference` (`mean.f32.reference`), with
    /// the family from the op's name (``kernelFamily``) and the type of its first input (first
    /// output, for an op without inputs).
    var resolvedKernelName: String {
        if let kernelName { return kernelName }
        let type = inputIndices.first(where: { $0 >= 0 }).map { executor.tensors[$0].type }
            ?? outputIndices.first(where: { $0 >= 0 }).map { executor.tensors[$0].type }
        return "\(kernelFamily).\(type?.kernelNameTag ?? "none").reference"
    }

    /// The op's name as kernel names begin: lower case, words joined by `-`, a number joined
    /// to the word before it (`CONV_2D` -> `conv2d`, `FULLY_CONNECTED` -> `fully-connected`).
    var kernelFamily: String {
        var family = ""
        for (k, c) in opName.lowercased().enumerated() {
            guard c == "_" else { family.append(c); continue }
            if opName.dropFirst(k + 1).first?.isNumber != true { family.append("-") }
        }
        return family
    }

    /// Optional input `i` as a planning function sees it.
    func planned<T>(input i: Int, as: T.Type) -> PlannedOperand<T> {
        optionalInput(i)?.planned(as: T.self) ?? .absent
    }

    /// Takes a planned kernel's name and scratch for this node.
    mutating func adopt<Operands>(_ kernel: PlannedKernel<Operands>) {
        requestScratch(bytes: kernel.scratchBytes)
        kernelName = kernel.name
    }

    /// The node's kernel for a planned kernel over weights (a convolution, FULLY_CONNECTED):
    /// its name and scratch taken, the tensors bound by index. `filter` finds the filter at run
    /// time (an int4 one widened at prepare); `residual` is a folded residual ADD's operand.
    mutating func bind<Element, Filter, Bias>(_ kernel: PlannedKernel<WeightedOperands<Element, Filter, Bias>>, input: Int,
                                              filter: @escaping (InvokeContext) -> UnsafeMutablePointer<Filter>, bias: Int?,
                                              output: Int, residual: (tensor: Int, channels: Int)? = nil) -> NodeKernel {
        adopt(kernel)
        return { c in
            kernel.run(WeightedOperands(input: c.data(input, as: Element.self), filter: filter(c), bias: optionalData(c, bias, as: Bias.self),
                                        output: c.data(output, as: Element.self), scratch: c.scratch,
                                        residual: residual.map { GEMMResidual(base: c.data($0.tensor, as: Float.self), channels: $0.channels) }),
                       c.threads)
        }
    }
}

extension TensorInfo {
    /// The tensor as a planning function sees it: constant (its data) or computed at run time.
    func planned<T>(as: T.Type) -> PlannedOperand<T> {
        constantData.map { .constant($0.assumingMemoryBound(to: T.self)) } ?? .computed
    }
}

extension Int8Filter {
    /// The filter values as a planning function sees them (widened ones for an int4 filter).
    func planned(_ w: TensorInfo) -> PlannedOperand<Int8> {
        constantValues(w).map { .constant($0.assumingMemoryBound(to: Int8.self)) } ?? .computed
    }
}
extension DataType {
    /// The type as kernel names spell it: `f32`, `i8`, `u8`, `i16`, ...
    var kernelNameTag: String {
        switch self {
        case .float32: "f32"
        case .float16: "f16"
        case .float64: "f64"
        case .bFloat16: "bf16"
        case .int8: "i8"
        case .uInt8: "u8"
        case .int16: "i16"
        case .uInt16: "u16"
        case .int32: "i32"
        case .uInt32: "u32"
        case .int64: "i64"
        case .uInt64: "u64"
        case .int4: "i4"
        case .uInt4: "u4"
        case .int2: "i2"
        case .float8e4m3fn: "f8e4m3fn"
        case .float8e5m2: "f8e5m2"
        case .bool: "bool"
        case .string: "string"
        case .complex64: "c64"
        case .complex128: "c128"
        case .resource: "resource"
        case .variant: "variant"
        }
    }
}

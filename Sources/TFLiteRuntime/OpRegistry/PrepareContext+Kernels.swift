import Kernels

extension PrepareContext {
    /// What this node's kernel is planned with; families with a choice of kernels pass it to
    /// their planning function (`Conv2D.Quantized.plan`, ...), which picks.
    var kernelChoice: KernelChoice { executor.kernelChoice }

    /// The node's kernel name: the one its prepare step set, else the one rule for an op's
    /// only kernel, `<op>.<type>.reference` (`mean.f32.reference`), from the op's name and its
    /// first input's type (first output's, for an op without inputs).
    var resolvedKernelName: String {
        if let kernelName { return kernelName }
        // CONV_2D -> conv2d, FULLY_CONNECTED -> fully-connected.
        var op = ""
        for (k, c) in opName.lowercased().enumerated() {
            guard c == "_" else { op.append(c); continue }
            if opName.dropFirst(k + 1).first?.isNumber != true { op.append("-") }
        }
        let type = inputIndices.first(where: { $0 >= 0 }).map { executor.tensors[$0].type }
            ?? outputIndices.first(where: { $0 >= 0 }).map { executor.tensors[$0].type }
        return "\(op).\(type?.kernelNameTag ?? "none").reference"
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

import Kernels

/// String tensors hold TFLite's packed layout (``PackedStrings``), whose size depends on the
/// strings, not the shape: each lives in memory of its own that its writer (the caller for an
/// input, a kernel for an output) replaces whole. Every read validates the layout against the
/// shape, so no kernel trusts offsets from a model file or a caller.
extension SubgraphExecutor {
    /// Makes each string input dynamic and gives it `shape`'s count of empty strings unless it
    /// already holds that many (inputs keep their values across allocations).
    func prepareStringInputs() throws(InterpreterError) {
        for t in inputs where tensors[t].type == .string {
            tensors[t].isDynamic = true
            let count = Shape.checkedElementCount(tensors[t].shape) ?? Int.max
            if let held = try? strings(t), held.count == count { continue }
            try assignShape(t, tensors[t].shape)
            try storeStrings(PackedStrings.encode([[UInt8]](repeating: [], count: count)), shape: tensors[t].shape, in: t)
        }
    }

    /// The strings of tensor `t`, checked to be well formed and as many as its shape holds.
    func strings(_ t: Int) throws(InterpreterError) -> PackedStrings.View {
        let r = tensors[t]
        guard r.type == .string else { throw .invalidDataType(tensor: r.name, expected: .string, actual: r.type) }
        guard let bytes = r.stringByteCount else {
            throw .invalidShape(tensor: r.name, reason: "the string tensor holds no data")
        }
        let view: PackedStrings.View
        do {
            view = try PackedStrings.View(UnsafeRawBufferPointer(start: pointers[t], count: bytes))
        } catch {
            throw .invalidShape(tensor: r.name, reason: "malformed string data: \(error)")
        }
        guard view.count == r.elementCount else {
            throw .invalidShape(tensor: r.name, reason: "holds \(view.count) strings, its shape \(r.shape) needs \(r.elementCount)")
        }
        return view
    }

    /// Replaces string tensor `t`'s contents with `packed` (already in the packed layout, with
    /// `shape`'s count of strings) and gives it `shape`.
    func storeStrings(_ packed: [UInt8], shape: [Int], in t: Int) throws(InterpreterError) {
        guard tensors[t].isDynamic else {
            throw .invalidShape(tensor: tensors[t].name, reason: "a string tensor written but not declared dynamic")
        }
        guard packed.count <= memoryLimit else { throw .memoryLimitExceeded(requested: packed.count, limit: memoryLimit) }
        try assignShape(t, shape)
        let buffer: AlignedBuffer
        if case .owned(let b) = tensors[t].storage, b.byteCount >= packed.count {
            buffer = b
        } else {
            buffer = AlignedBuffer(byteCount: packed.count)
            tensors[t].storage = .owned(buffer)
            pointers[t] = buffer.pointer
        }
        packed.withUnsafeBytes { buffer.pointer.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        tensors[t].stringByteCount = packed.count
    }

    /// Copies a caller's packed strings into string input `t`, which keeps its shape: the
    /// count of strings must match it.
    func writeStrings(packed data: [UInt8], to t: Int) throws(InterpreterError) {
        let r = tensors[t]
        let counted = data.withUnsafeBytes { raw in
            Result { () throws(PackedStrings.FormatError) in try PackedStrings.View(raw).count }
        }
        let strings: Int
        switch counted {
        case .success(let n): strings = n
        case .failure(let e): throw .invalidShape(tensor: r.name, reason: "malformed string data: \(e)")
        }
        guard strings == r.elementCount else {
            throw .invalidShape(tensor: r.name, reason: "given \(strings) strings, its shape \(r.shape) holds \(r.elementCount)")
        }
        try storeStrings(data, shape: r.shape, in: t)
    }
}

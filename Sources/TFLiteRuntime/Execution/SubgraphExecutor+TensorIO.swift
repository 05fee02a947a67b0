extension SubgraphExecutor {
    /// A copy of tensor `t`'s description and bytes.
    func snapshot(_ t: Int) throws(InterpreterError) -> Tensor {
        let r = tensors[t]
        guard isAllocated || r.isWeight else { throw .tensorsNotAllocated }
        let count = r.byteCount ?? 0
        // A value-shaped tensor keeps its model shape until a kernel sizes it, over memory
        // that may not hold that shape yet.
        if case .owned(let buffer) = r.storage, buffer.byteCount < count {
            throw .invalidShape(tensor: r.name, reason: "holds no value yet: its shape depends on input values; read it after invoke()")
        }
        if case .none = r.storage, count > 0 {
            throw .invalidShape(tensor: r.name, reason: "holds no value yet; read it after invoke()")
        }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: pointers[t], count: count))
        return Tensor(name: r.name, dataType: r.type, shape: r.shape, data: bytes, quantizationParameters: r.quantization)
    }

    /// Copies raw bytes into input `t`: its elements' bytes, or for a string tensor its
    /// strings in the packed layout (``PackedStrings``).
    func writeBytes(_ data: [UInt8], to t: Int) throws(InterpreterError) {
        guard isAllocated else { throw .tensorsNotAllocated }
        if tensors[t].type == .string { try writeStrings(packed: data, to: t) } else { try write(data, to: t) }
    }

    /// Copies the bytes of `values` into tensor `t`, whose byte size they must match.
    func write<T: BitwiseCopyable>(_ values: [T], to t: Int) throws(InterpreterError) {
        guard isAllocated else { throw .tensorsNotAllocated }
        let r = tensors[t]
        let expected = r.byteCount ?? 0
        let given = values.count * MemoryLayout<T>.stride
        guard given == expected else {
            throw .invalidDataSize(tensor: r.name, expected: expected, actual: given)
        }
        let destination = pointers[t]
        values.withUnsafeBytes { raw in
            if expected > 0 { destination.copyMemory(from: raw.baseAddress!, byteCount: expected) }
        }
    }
}

import TFLiteRuntime

/// The outputs of one ``ModelInterpreter`` run.
public struct ModelOutputs: Sendable {
    let tensors: [Tensor]

    /// How many outputs there are.
    public var count: Int { tensors.count }

    /// Output `index`'s raw bytes.
    public func data(index: Int) throws(TaskError) -> [UInt8] {
        try tensor(index).data
    }

    /// Output `index` as a flat typed array; `T` must match its type.
    public func values<T: TensorElement>(index: Int, as: T.Type) throws(TaskError) -> [T] {
        let t = try tensor(index)
        guard t.dataType == T.dataType else { throw .invalidFormat("output \(index) has type \(t.dataType), not \(T.dataType)") }
        return t.values(as: T.self)
    }

    /// Output `index` as nested arrays following its shape (`[[Float]]` for a `[1, N]`
    /// float output, and so on).
    public func output(index: Int) throws(TaskError) -> Any {
        let t = try tensor(index)
        let flat: [Any]
        switch t.dataType {
        case .float32: flat = t.values(as: Float.self)
        case .uInt8: flat = t.values(as: UInt8.self)
        case .int8: flat = t.values(as: Int8.self)
        case .int32: flat = t.values(as: Int32.self)
        case .int64: flat = t.values(as: Int64.self)
        default: throw .invalidFormat("output \(index) has type \(t.dataType), which has no nested form")
        }
        func nest(_ dims: ArraySlice<Int>, _ start: Int) -> (Any, Int) {
            guard let first = dims.first else { return (flat[start], 1) }
            var items: [Any] = []
            var offset = start
            for _ in 0..<first {
                let (item, n) = nest(dims.dropFirst(), offset)
                items.append(item)
                offset += n
            }
            return (items, offset - start)
        }
        return nest(t.shape[...], 0).0
    }

    private func tensor(_ index: Int) throws(TaskError) -> Tensor {
        guard index >= 0, index < tensors.count else {
            throw .invalidFormat("output index \(index) is out of range: the model has \(tensors.count) outputs")
        }
        return tensors[index]
    }
}

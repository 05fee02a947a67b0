// Structural validation at load: every index and size the runtime later trusts is proven
// here once. Whether an operator accepts its shapes and types is left to prepare.

extension Model {
    /// The schema version this runtime reads.
    public static let supportedSchemaVersion: UInt32 = 3

    /// Throws ``ModelError/invalid(location:reason:)`` for the first inconsistency found.
    static func validate(_ model: Schema.Model, byteCount: Int) throws(ModelError) {
        guard model.version == supportedSchemaVersion else {
            throw .invalid(location: "model", reason: "schema version \(model.version) is not the supported version \(supportedSchemaVersion)")
        }
        guard !model.subgraphs.isEmpty else {
            throw .invalid(location: "model", reason: "the model has no subgraphs")
        }
        for (i, buffer) in model.buffers.enumerated() {
            try validateBuffer(buffer, index: i, byteCount: byteCount)
        }
        for (i, code) in model.operatorCodes.enumerated() {
            let kind = OperatorKind(code: code)
            if case .custom(let name) = kind, name.isEmpty {
                throw .invalid(location: "operator code \(i)", reason: "custom operator without a custom_code")
            }
        }
        var calls: [[Int]] = []
        for (s, subgraph) in model.subgraphs.enumerated() {
            calls.append(try validateSubgraph(subgraph, index: s, in: model, byteCount: byteCount))
        }
        try checkAcyclic(calls)
        for (i, signature) in model.signatureDefs.enumerated() {
            try validateSignature(signature, index: i, in: model)
        }
        for (i, entry) in model.metadata.enumerated() where Int(entry.buffer) >= model.buffers.count {
            throw .invalid(location: "metadata \(i) '\(printable(entry.name ?? ""))'",
                           reason: "buffer index \(entry.buffer) is out of range (the model has \(model.buffers.count) buffers)")
        }
        for index in model.metadataBuffer where index < 0 || Int(index) >= model.buffers.count {
            throw .invalid(location: "model metadata_buffer", reason: "buffer index \(index) is out of range (the model has \(model.buffers.count) buffers)")
        }
    }

    /// The `offset`/`size` form must lie inside the file, after nothing but arithmetic that
    /// cannot overflow.
    static func validateBuffer(_ buffer: Schema.Buffer, index: Int, byteCount: Int) throws(ModelError) {
        guard buffer.offset > 1 else { return }
        let (end, overflow) = buffer.offset.addingReportingOverflow(buffer.size)
        guard !overflow, end <= UInt64(byteCount) else {
            throw .invalid(location: "buffer \(index)",
                           reason: "data at offset \(buffer.offset) with size \(buffer.size) runs past the end of the \(byteCount)-byte file")
        }
    }

    /// Checks one subgraph and returns the subgraphs its operators refer to.
    static func validateSubgraph(_ subgraph: Schema.SubGraph, index s: Int, in model: Schema.Model,
                                 byteCount: Int) throws(ModelError) -> [Int] {
        let tensorCount = subgraph.tensors.count
        for (t, tensor) in subgraph.tensors.enumerated() {
            try validateTensor(tensor, location: "subgraph \(s), tensor \(t) '\(printable(tensor.name ?? ""))'", in: model)
        }
        for (k, index) in subgraph.inputs.enumerated() where index < 0 || Int(index) >= tensorCount {
            throw .invalid(location: "subgraph \(s), input \(k)", reason: "tensor index \(index) is out of range (the subgraph has \(tensorCount) tensors)")
        }
        for (k, index) in subgraph.outputs.enumerated() where index < 0 || Int(index) >= tensorCount {
            throw .invalid(location: "subgraph \(s), output \(k)", reason: "tensor index \(index) is out of range (the subgraph has \(tensorCount) tensors)")
        }
        var callees: [Int] = []
        for (o, op) in subgraph.operators.enumerated() {
            guard Int(op.opcodeIndex) < model.operatorCodes.count else {
                throw .invalid(location: "subgraph \(s), operator \(o)",
                               reason: "opcode index \(op.opcodeIndex) is out of range (the model has \(model.operatorCodes.count) operator codes)")
            }
            // Built only when a check fails: most models pass, and names cost time to format.
            func location() -> String {
                "subgraph \(s), operator \(o) (\(OperatorKind(code: model.operatorCodes[Int(op.opcodeIndex)]).name))"
            }
            try checkTensorIndices(op.inputs, "input", optional: true, tensorCount: tensorCount, location: location())
            try checkTensorIndices(op.outputs, "output", optional: false, tensorCount: tensorCount, location: location())
            try checkTensorIndices(op.intermediates, "intermediate", optional: false, tensorCount: tensorCount, location: location())
            if op.largeCustomOptionsOffset > 1 {
                let (end, overflow) = op.largeCustomOptionsOffset.addingReportingOverflow(op.largeCustomOptionsSize)
                guard !overflow, end <= UInt64(byteCount) else {
                    throw .invalid(location: location(),
                                   reason: "custom options at offset \(op.largeCustomOptionsOffset) with size \(op.largeCustomOptionsSize) run past the end of the \(byteCount)-byte file")
                }
            }
            for callee in op.referencedSubgraphs {
                guard callee >= 0, callee < model.subgraphs.count else {
                    throw .invalid(location: location(),
                                   reason: "subgraph index \(callee) is out of range (the model has \(model.subgraphs.count) subgraphs)")
                }
                callees.append(callee)
            }
        }
        return callees
    }

    static func checkTensorIndices(_ indices: [Int32], _ role: String, optional: Bool, tensorCount: Int,
                                   location: @autoclosure () -> String) throws(ModelError) {
        for (k, index) in indices.enumerated() {
            if optional && index == -1 { continue }
            guard index >= 0, Int(index) < tensorCount else {
                throw .invalid(location: location(),
                               reason: "\(role) \(k): tensor index \(index) is out of range (the subgraph has \(tensorCount) tensors)")
            }
        }
    }

    /// Shape, buffer size and quantization parameters of one tensor.
    static func validateTensor(_ tensor: Schema.Tensor, location: @autoclosure () -> String, in model: Schema.Model) throws(ModelError) {
        for dim in tensor.shape where dim < 0 {
            throw .invalid(location: location(), reason: "shape \(tensor.shape) has a negative dimension")
        }
        for dim in tensor.shapeSignature where dim < -1 {
            throw .invalid(location: location(), reason: "shape_signature \(tensor.shapeSignature) has a dimension below -1")
        }
        if !tensor.shapeSignature.isEmpty && tensor.shapeSignature.count != tensor.shape.count {
            throw .invalid(location: location(),
                           reason: "shape_signature \(tensor.shapeSignature) and shape \(tensor.shape) differ in rank")
        }
        var elements = 1
        for dim in tensor.shape {
            let (product, overflow) = elements.multipliedReportingOverflow(by: Int(dim))
            guard !overflow else {
                throw .invalid(location: location(), reason: "shape \(tensor.shape) has more elements than can be counted")
            }
            elements = product
        }
        let elementSize = tensor.type.byteSize ?? 1
        let (byteCount, byteOverflow) = elements.multipliedReportingOverflow(by: elementSize)
        guard !byteOverflow else {
            throw .invalid(location: location(), reason: "shape \(tensor.shape) of \(tensor.type.name) has more bytes than can be counted")
        }
        guard Int(tensor.buffer) < model.buffers.count else {
            throw .invalid(location: location(),
                           reason: "buffer index \(tensor.buffer) is out of range (the model has \(model.buffers.count) buffers)")
        }
        let buffer = model.buffers[Int(tensor.buffer)]
        let stored = buffer.data.map { $0.count } ?? (buffer.offset > 1 ? Int(buffer.size) : 0)
        if stored > 0, tensor.sparsity == nil, tensor.type.byteSize != nil, stored != byteCount {
            throw .invalid(location: location(),
                           reason: "buffer \(tensor.buffer) holds \(stored) bytes but shape \(tensor.shape) of \(tensor.type.name) needs \(byteCount)")
        }
        if stored > 0, tensor.sparsity == nil, let perByte = packedValuesPerByte(tensor.type) {
            // Sub-byte values are packed densely, low bits first, the last byte padded.
            let needed = (elements + perByte - 1) / perByte
            guard stored == needed else {
                throw .invalid(location: location(),
                               reason: "buffer \(tensor.buffer) holds \(stored) bytes but \(elements) packed \(tensor.type.name) values need \(needed)")
            }
        }
        if let quantization = tensor.quantization {
            if case .blockwiseQuantization(let b)? = quantization.details {
                guard b.blockSize > 0 else {
                    throw .invalid(location: location(), reason: "blockwise quantization has block size \(b.blockSize); it must be positive")
                }
            }
            try validateQuantization(quantization, type: tensor.type, shape: tensor.shape, location: location())
        }
    }

    /// One scale per tensor, or one per slice along `quantized_dimension`; zero points absent
    /// or matching the scales. Scales are finite and not negative, zero points lie in the
    /// tensor's storage range: the kernels' fixed-point arithmetic (offsets, multipliers,
    /// lookup tables) is written for these ranges and cannot overflow inside them.
    static func validateQuantization(_ q: Schema.QuantizationParameters, type: Schema.TensorType, shape: [Int32],
                                     location: @autoclosure () -> String) throws(ModelError) {
        let scales = q.scale.count
        guard scales > 0 else { return }
        // A single scale applies to the whole tensor and its axis is never read, and a vector
        // has only one axis to quantise along: converters leave stale axes in both (TFLite
        // Micro's person_detect has axis 3 on its rank-1 per-channel biases).
        let axis = shape.count == 1 ? 0 : Int(q.quantizedDimension)
        guard scales == 1 || (axis >= 0 && axis < shape.count) else {
            throw .invalid(location: location(), reason: "quantized_dimension \(axis) is outside the tensor's rank \(shape.count)")
        }
        guard scales == 1 || scales == Int(shape[axis]) else {
            throw .invalid(location: location(),
                           reason: "\(scales) quantization scales for dimension \(axis) of shape \(shape); expected 1 or that dimension's size")
        }
        guard q.zeroPoint.isEmpty || q.zeroPoint.count == scales else {
            throw .invalid(location: location(), reason: "\(q.zeroPoint.count) zero points for \(scales) quantization scales")
        }
        for scale in q.scale where !scale.isFinite || scale < 0 {
            throw .invalid(location: location(), reason: "quantization scale \(scale) is not a finite number 0 or more")
        }
        let range = zeroPointRange(type)
        for zeroPoint in q.zeroPoint where !range.contains(zeroPoint) {
            throw .invalid(location: location(),
                           reason: "zero point \(zeroPoint) is outside the \(type.name) range \(range.lowerBound)...\(range.upperBound)")
        }
    }

    /// The bytes a dense constant of `tensor`'s shape and type occupies (sub-byte values packed,
    /// the last byte padded); nil when its shape does not fix its size (strings and the other
    /// variable-size types, sparse tensors). Only for tensors `validateTensor` accepted, whose
    /// byte counts it proved free of overflow.
    static func denseByteCount(_ tensor: Schema.Tensor) -> Int? {
        guard tensor.sparsity == nil else { return nil }
        let elements = tensor.shape.reduce(1) { $0 * Int($1) }
        if let perByte = packedValuesPerByte(tensor.type) { return (elements + perByte - 1) / perByte }
        return tensor.type.byteSize.map { elements * $0 }
    }

    /// How many values of a sub-byte type one byte holds; nil for the other types.
    static func packedValuesPerByte(_ type: Schema.TensorType) -> Int? {
        switch type {
        case .int4, .uint4: return 2
        case .int2: return 4
        default: return nil
        }
    }

    /// The values a zero point of a tensor of `type` may take: its storage range (int32 for
    /// the wider types, whose zero points are 0 in practice and enter int32 arithmetic).
    static func zeroPointRange(_ type: Schema.TensorType) -> ClosedRange<Int64> {
        switch type {
        case .int8: return -128...127
        case .uint8: return 0...255
        case .int16: return -32_768...32_767
        case .uint16: return 0...65_535
        case .int4: return -8...7
        case .uint4: return 0...15
        case .int2: return -2...1
        default: return Int64(Int32.min)...Int64(Int32.max)
        }
    }

    static func validateSignature(_ signature: Schema.SignatureDef, index: Int, in model: Schema.Model) throws(ModelError) {
        let location = "signature \(index) '\(printable(signature.signatureKey ?? ""))'"
        guard Int(signature.subgraphIndex) < model.subgraphs.count else {
            throw .invalid(location: location,
                           reason: "subgraph index \(signature.subgraphIndex) is out of range (the model has \(model.subgraphs.count) subgraphs)")
        }
        let tensorCount = model.subgraphs[Int(signature.subgraphIndex)].tensors.count
        for map in signature.inputs + signature.outputs where Int(map.tensorIndex) >= tensorCount {
            throw .invalid(location: location + ", tensor '\(printable(map.name ?? ""))'",
                           reason: "tensor index \(map.tensorIndex) is out of range (subgraph \(signature.subgraphIndex) has \(tensorCount) tensors)")
        }
    }

    /// Rejects a subgraph that can reach itself through control-flow options, which would
    /// recurse without end at run time. Iterative, so a long chain cannot exhaust the stack.
    static func checkAcyclic(_ calls: [[Int]]) throws(ModelError) {
        enum Mark { case unvisited, active, done }
        var marks = [Mark](repeating: .unvisited, count: calls.count)
        for start in calls.indices where marks[start] == .unvisited {
            var stack: [(node: Int, next: Int)] = [(start, 0)]
            marks[start] = .active
            while let (node, next) = stack.last {
                if next < calls[node].count {
                    stack[stack.count - 1].next += 1
                    let callee = calls[node][next]
                    switch marks[callee] {
                    case .active:
                        throw .invalid(location: "subgraph \(node)",
                                       reason: "control flow refers back to subgraph \(callee), which is already being called (recursive subgraphs)")
                    case .unvisited:
                        marks[callee] = .active
                        stack.append((callee, 0))
                    case .done:
                        break
                    }
                } else {
                    marks[node] = .done
                    stack.removeLast()
                }
            }
        }
    }
}

/// Replaces control and non-ASCII characters of untrusted names so messages stay readable.
func printable(_ text: String) -> String {
    String(text.unicodeScalars.map { $0.isASCII && $0.value >= 32 && $0.value < 127 ? Character($0) : "?" })
}

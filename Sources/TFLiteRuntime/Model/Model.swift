import FlatBuffers

/// A loaded, validated TFLite model.
///
/// Loading decodes every table of the schema once into ``schema`` and proves every index and
/// size the runtime relies on (see `Model+Validate.swift`); weights stay where they are, in
/// the mapped file or the private copy of the bytes (or in the mapped files of its external
/// buffers), and are read through ``constantData(subgraph:tensor:)``. A model is immutable and
/// may be shared between threads; the memory it hands out stays valid while the model lives.
public final class Model: @unchecked Sendable {
    /// The decoded and validated model.
    public let schema: Schema.Model
    /// What each operator code resolves to, by operator-code index.
    let operatorKinds: [OperatorKind]
    let memory: ModelMemory
    /// The data of tensors stored in other files (`Tensor.external_buffer`).
    let external: ExternalBuffers

    /// Loads the model at `path` by mapping the file read-only (zero-copy; unmapped when the
    /// model is released), and the files of its external buffers, named relative to the
    /// model file's folder, likewise. Throws ``ModelError`` for unreadable, malformed or
    /// inconsistent files.
    public convenience init(path: String) throws(ModelError) {
        try self.init(memory: ModelMemory.mapping(path), directory: Model.directory(of: path))
    }

    /// Loads a model from its bytes (copied once into aligned memory the model owns). A model
    /// whose tensors keep their data in external buffers must be loaded from its path.
    public convenience init(bytes: [UInt8]) throws(ModelError) {
        try self.init(memory: ModelMemory.copying(bytes), directory: nil)
    }

    /// Takes ownership of `memory`, releasing it if the model is rejected; `directory` is
    /// where the files of external buffers are, nil when the model has no file.
    init(memory: ModelMemory, directory: String?) throws(ModelError) {
        do {
            let schema = try Model.decode(memory.bytes)
            try Model.validate(schema, byteCount: memory.bytes.count)
            self.external = try ExternalBuffers.resolve(schema, directory: directory)
            self.schema = schema
            self.operatorKinds = schema.operatorCodes.map(OperatorKind.init(code:))
        } catch {
            memory.release()
            throw error
        }
        self.memory = memory
    }

    deinit {
        memory.release()
        external.release()
    }

    /// The folder of the file at `path`, as a path to prefix names with.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Decodes the FlatBuffer part (the first 2 GiB at most; larger models keep their
    /// buffers after it, addressed by `Buffer.offset`).
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(ModelError) -> Schema.Model {
        do {
            let flatBufferPart = UnsafeRawBufferPointer(rebasing: bytes[0..<min(bytes.count, FlatBuffer.maxSize)])
            let buffer = try FlatBuffer(bytes: flatBufferPart)
            try buffer.expectIdentifier("TFL3")
            return try Schema.Model(table: buffer.root())
        } catch {
            throw .flatBuffer(error)
        }
    }

    /// The whole model file.
    public var fileBytes: UnsafeRawBufferPointer { memory.bytes }

    /// The bytes of a range decoded from this model (custom options, buffer data,
    /// metadata). Valid while the model lives.
    public func bytes(_ range: Schema.ByteRange) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: memory.bytes[range.offset..<(range.offset + range.count)])
    }

    /// The data of buffer `bufferIndex`: its `data` vector, or the `offset`/`size` region
    /// after the FlatBuffer that models over 2 GiB use; empty when the buffer holds none.
    /// Load proved both forms in range.
    public func bufferData(_ bufferIndex: Int) -> UnsafeRawBufferPointer {
        let buffer = schema.buffers[bufferIndex]
        if let data = buffer.data, data.count > 0 {
            return bytes(data)
        }
        if buffer.offset > 1, buffer.size > 0 {
            return bytes(Schema.ByteRange(offset: Int(buffer.offset), count: Int(buffer.size)))
        }
        return UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// The constant data of a tensor: its slice of an external buffer's file, or its buffer's
    /// bytes; nil when it has none (activations, inputs, variables).
    public func constantData(subgraph: Int, tensor: Int) -> UnsafeRawBufferPointer? {
        let data = external.data(subgraph: subgraph, tensor: tensor)
            ?? bufferData(Int(schema.subgraphs[subgraph].tensors[tensor].buffer))
        return data.isEmpty ? nil : data
    }

    /// The custom options of operator `op` in subgraph `subgraph`: its `custom_options`
    /// vector, or the `large_custom_options_offset`/`size` region after the FlatBuffer that
    /// models over 2 GiB use; nil when it has none. Load proved both forms in range.
    public func customOptions(subgraph: Int, operator op: Int) -> UnsafeRawBufferPointer? {
        let node = schema.subgraphs[subgraph].operators[op]
        if let range = node.customOptions {
            return bytes(range)
        }
        if node.largeCustomOptionsOffset > 1, node.largeCustomOptionsSize > 0 {
            return bytes(Schema.ByteRange(offset: Int(node.largeCustomOptionsOffset), count: Int(node.largeCustomOptionsSize)))
        }
        return nil
    }

    /// The buffer of the metadata entry called `name` (e.g. `TFLITE_METADATA`), or nil when
    /// there is no such entry.
    public func metadataBuffer(named name: String) -> UnsafeRawBufferPointer? {
        guard let entry = schema.metadata.first(where: { $0.name == name }) else { return nil }
        return bufferData(Int(entry.buffer))
    }

    /// What operator code `index` denotes: a builtin (resolving the schema's
    /// `max(deprecated_builtin_code, builtin_code)` rule) or a custom op by its code.
    public func operatorKind(ofCode index: Int) -> OperatorKind {
        operatorKinds[index]
    }
}

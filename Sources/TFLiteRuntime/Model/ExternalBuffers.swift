/// The data of tensors kept outside the model file: a tensor whose `external_buffer` is not 0
/// names an entry of `Model.external_buffers` by id, which names a file (its group, in
/// `Model.external_buffer_groups`) and a slice of it. LiteRT's CPU path
/// (`weight_loader/external_weight_loader_litert.cc`) maps each slice read-only and points the
/// tensor at it; here each group's file is mapped once, when the model loads, and shared as the
/// model's own weights are. Every id, group index and slice is proven at load, so reading a
/// tensor's data later needs no check.
struct ExternalBuffers {
    /// LiteRT refuses a host buffer whose address is not a multiple of this
    /// (`LITERT_HOST_MEMORY_BUFFER_ALIGNMENT`); a file is mapped at a page boundary, so a slice's
    /// address is aligned exactly when its offset is.
    static let alignment: UInt64 = 64

    /// The mapped group files, released with the model.
    private let files: [ModelMemory]
    /// Per subgraph, the data of each tensor stored externally, by tensor index (empty when the
    /// model has no such tensor).
    private let slices: [[Int: UnsafeRawBufferPointer]]

    static var none: ExternalBuffers { ExternalBuffers(files: [], slices: []) }

    /// The external data of tensor `tensor` of subgraph `subgraph`, nil when it has none.
    func data(subgraph: Int, tensor: Int) -> UnsafeRawBufferPointer? {
        subgraph < slices.count ? slices[subgraph][tensor] : nil
    }

    func release() {
        for file in files { file.release() }
    }

    /// Maps the files `model`'s tensors take data from and finds each tensor's slice. A group's
    /// name is a path relative to `directory` (the model file's folder) that stays in or below
    /// it. `directory` is nil for a model loaded from bytes, which then cannot have external
    /// data (LiteRT would look in the working directory).
    static func resolve(_ model: Schema.Model, directory: String?) throws(ModelError) -> ExternalBuffers {
        guard model.subgraphs.contains(where: { $0.tensors.contains { $0.externalBuffer != 0 } }) else { return .none }
        var entryByID: [UInt32: Int] = [:]
        for (i, entry) in model.externalBuffers.enumerated() {
            // LiteRT keeps the first of equal ids silently; two slices under one id make the
            // model ambiguous, so it is refused.
            if let first = entryByID[entry.id] {
                throw .invalid(location: "external buffer \(i)", reason: "id \(entry.id) is already the id of external buffer \(first)")
            }
            entryByID[entry.id] = i
        }
        var resolver = Resolver(model: model, directory: directory, entryByID: entryByID)
        do {
            var slices: [[Int: UnsafeRawBufferPointer]] = []
            for (s, subgraph) in model.subgraphs.enumerated() {
                var found: [Int: UnsafeRawBufferPointer] = [:]
                for (t, tensor) in subgraph.tensors.enumerated() where tensor.externalBuffer != 0 {
                    found[t] = try resolver.slice(of: tensor, location: "subgraph \(s), tensor \(t) '\(printable(tensor.name ?? ""))'")
                }
                slices.append(found)
            }
            return ExternalBuffers(files: Array(resolver.files.values), slices: slices)
        } catch {
            for file in resolver.files.values { file.release() }
            throw error
        }
    }

    /// Maps group files as tensors first need them.
    private struct Resolver {
        let model: Schema.Model
        let directory: String?
        let entryByID: [UInt32: Int]
        /// The mapped files by group index.
        var files: [Int: ModelMemory] = [:]

        mutating func slice(of tensor: Schema.Tensor, location: @autoclosure () -> String) throws(ModelError) -> UnsafeRawBufferPointer {
            let id = tensor.externalBuffer
            guard let index = entryByID[id] else {
                throw .invalid(location: location(),
                               reason: "external buffer id \(id) is not among the model's \(model.externalBuffers.count) external buffers")
            }
            // LiteRT's interpreter refuses these too: a variable's data is state the model writes.
            guard !tensor.isVariable else {
                throw .invalid(location: location(), reason: "a variable tensor cannot take its data from external buffer id \(id)")
            }
            let inline = model.buffers[Int(tensor.buffer)]
            guard (inline.data?.count ?? 0) == 0, inline.offset <= 1 || inline.size == 0 else {
                throw .invalid(location: location(), reason: "it has data both in buffer \(tensor.buffer) and in external buffer id \(id)")
            }
            let entry = model.externalBuffers[index]
            guard entry.group < model.externalBufferGroups.count else {
                throw .invalid(location: location(),
                               reason: "external buffer id \(id) is in group \(entry.group), but the model has \(model.externalBufferGroups.count) external buffer groups")
            }
            let group = Int(entry.group)
            let name = model.externalBufferGroups[group].name ?? ""
            let file = try mapGroup(group, name: name, location: location())
            let described = "external buffer id \(id) (offset \(entry.offset), length \(entry.length))"
            let (end, overflow) = entry.offset.addingReportingOverflow(entry.length)
            guard !overflow, end <= UInt64(file.bytes.count) else {
                throw .invalid(location: location(),
                               reason: "\(described) runs past the end of the \(file.bytes.count)-byte file '\(printable(name))'")
            }
            guard entry.offset % ExternalBuffers.alignment == 0 else {
                throw .invalid(location: location(),
                               reason: "\(described) does not start at a multiple of \(ExternalBuffers.alignment) bytes, as LiteRT requires")
            }
            // A longer slice is accepted, as LiteRT accepts it: the tensor is its first bytes.
            let needed = Model.denseByteCount(tensor).map(UInt64.init) ?? entry.length
            guard entry.length >= needed else {
                throw .invalid(location: location(),
                               reason: "\(described) holds \(entry.length) bytes but shape \(tensor.shape) of \(tensor.type.name) needs \(needed)")
            }
            let start = Int(entry.offset)
            return UnsafeRawBufferPointer(rebasing: file.bytes[start..<(start + Int(needed))])
        }

        private mutating func mapGroup(_ group: Int, name: String, location: @autoclosure () -> String) throws(ModelError) -> ModelMemory {
            if let file = files[group] { return file }
            guard let directory else {
                throw .invalid(location: location(),
                               reason: "its data is in external buffer group \(group) '\(printable(name))', a file found beside the model file, but the model was loaded from bytes; load it from its path")
            }
            // A name with a NUL would open a shorter path than the model names.
            guard !name.isEmpty, !name.utf8.contains(0) else {
                throw .invalid(location: "external buffer group \(group) '\(printable(name))'", reason: "the name is not a file name")
            }
            // LiteRT follows absolute names and `..` as they are, so a model could make it read
            // any file the process may read into a tensor, and out through the outputs. Models
            // are untrusted here: their external data must lie in or below their own folder.
            guard !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
                throw .invalid(location: "external buffer group \(group) '\(printable(name))'",
                               reason: "the name leads out of the model file's folder (an absolute path or '..'); external data must lie in or below it")
            }
            let path = directory + "/" + name
            do {
                let file = try ModelMemory.mappingFile(path)
                files[group] = file
                return file
            } catch {
                throw .invalid(location: "external buffer group \(group) '\(printable(name))'", reason: "cannot map '\(printable(path))': \(error.reason)")
            }
        }
    }
}

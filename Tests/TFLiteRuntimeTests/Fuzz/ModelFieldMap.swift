/// The places in a valid `.tflite` file where the fields the runtime trusts are stored, found
/// by walking the FlatBuffer from its root: tensor shapes, types, buffer indices and
/// quantisation, operator operands and opcodes, subgraph inputs and outputs, operator codes,
/// the scalar fields of builtin options, signature tensor indices and small constant buffers
/// (shapes, axes, paddings). The structure-aware fuzzer rewrites these in place, so every
/// variant stays a well-formed FlatBuffer and reaches the runtime's checks past the parser.
struct ModelFieldMap {
    enum Kind: Equatable {
        /// An element of a tensor's shape or shape signature.
        case dimension
        /// A `TensorType` byte.
        case tensorType
        /// A tensor's buffer index (`count`: the model's buffers).
        case bufferIndex(count: Int)
        /// An operator operand or a subgraph input/output (`count`: the subgraph's tensors).
        case tensorIndex(count: Int)
        /// An operator's opcode index (`count`: the model's operator codes).
        case opcodeIndex(count: Int)
        /// An operator code's `deprecated_builtin_code` (`byte`).
        case deprecatedCode
        /// An operator code's `builtin_code` (`int`).
        case builtinCode
        /// A quantisation scale (`float`).
        case scale
        /// A quantisation zero point (`long`).
        case zeroPoint
        /// A quantised dimension (`int`).
        case quantizedDimension
        /// A scalar of a builtin options table, `size` bytes (a float, an enum, an index...).
        case option(size: Int)
        /// A 4-byte word of a small constant buffer.
        case constantWord
        /// The `is_variable` flag.
        case flag
    }

    struct Slot {
        var offset: Int
        var kind: Kind
    }

    private(set) var slots: [Slot] = []
    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        guard let root = deref(0) else { return }
        walkModel(root)
    }

    // MARK: Raw FlatBuffer reading (bounds-checked; a seed that is not a model gives no slots)

    private func u8(_ at: Int) -> UInt8? { at >= 0 && at < bytes.count ? bytes[at] : nil }

    private func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8
    }

    private func i32(_ at: Int) -> Int? {
        guard at >= 0, at + 4 <= bytes.count else { return nil }
        return Int(Int32(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24))
    }

    /// The target of the unsigned offset stored at `at`.
    private func deref(_ at: Int) -> Int? {
        guard let value = i32(at) else { return nil }
        let target = at + Int(UInt32(bitPattern: Int32(value)))
        return target < bytes.count ? target : nil
    }

    /// The positions of each present field of the table at `table`, by field index.
    private func fields(_ table: Int) -> [Int: Int] {
        guard let soffset = i32(table), let vtableLength = u16(table - soffset) else { return [:] }
        let vtable = table - soffset
        var result: [Int: Int] = [:]
        var slot = 4
        while slot + 2 <= vtableLength {
            if let relative = u16(vtable + slot), relative != 0 { result[(slot - 4) / 2] = table + relative }
            slot += 2
        }
        return result
    }

    /// A vector's element count and first element's position, from the offset field at `at`.
    private func vector(_ at: Int?) -> (count: Int, start: Int)? {
        guard let at, let vector = deref(at), let count = i32(vector), count >= 0 else { return nil }
        return (count, vector + 4)
    }

    /// The tables of a vector of tables.
    private func tables(_ at: Int?) -> [Int] {
        guard let (count, start) = vector(at) else { return [] }
        return (0..<count).compactMap { deref(start + 4 * $0) }
    }

    private mutating func addElements(_ at: Int?, width: Int, _ kind: Kind) {
        guard let (count, start) = vector(at) else { return }
        for k in 0..<count where start + width * (k + 1) <= bytes.count {
            slots.append(Slot(offset: start + width * k, kind: kind))
        }
    }

    private mutating func add(_ at: Int?, _ kind: Kind) {
        if let at { slots.append(Slot(offset: at, kind: kind)) }
    }

    // MARK: The schema's tables (field numbers from schema.fbs; a union counts twice)

    private mutating func walkModel(_ model: Int) {
        let f = fields(model)
        let codes = tables(f[1])
        let buffers = tables(f[4])
        for code in codes {
            let c = fields(code)
            add(c[0], .deprecatedCode)
            add(c[3], .builtinCode)
        }
        for buffer in buffers {
            // Small constants are shapes, axes, paddings and sizes: the values ops trust.
            if let (count, start) = vector(fields(buffer)[0]), count <= 64 {
                for k in stride(from: 0, to: count - 3, by: 4) { slots.append(Slot(offset: start + k, kind: .constantWord)) }
            }
        }
        for subgraph in tables(f[2]) {
            let s = fields(subgraph)
            let tensors = tables(s[0])
            let tensorCount = tensors.count
            for tensor in tensors {
                let t = fields(tensor)
                addElements(t[0], width: 4, .dimension)
                add(t[1], .tensorType)
                add(t[2], .bufferIndex(count: buffers.count))
                add(t[5], .flag)
                addElements(t[7], width: 4, .dimension)
                if let q = t[4].flatMap(deref) {
                    let qf = fields(q)
                    addElements(qf[2], width: 4, .scale)
                    addElements(qf[3], width: 8, .zeroPoint)
                    add(qf[6], .quantizedDimension)
                }
            }
            addElements(s[1], width: 4, .tensorIndex(count: tensorCount))
            addElements(s[2], width: 4, .tensorIndex(count: tensorCount))
            for op in tables(s[3]) {
                let o = fields(op)
                add(o[0], .opcodeIndex(count: codes.count))
                addElements(o[1], width: 4, .tensorIndex(count: tensorCount))
                addElements(o[2], width: 4, .tensorIndex(count: tensorCount))
                addElements(o[8], width: 4, .tensorIndex(count: tensorCount))
                if let options = o[4].flatMap(deref) { addOptionScalars(options) }
            }
        }
        for signature in tables(f[7]) {
            let s = fields(signature)
            for map in tables(s[0]) + tables(s[1]) { add(fields(map)[1], .tensorIndex(count: Int.max)) }
        }
    }

    /// Every field of an options table, sized by the gap to the next field (options hold
    /// 1-, 4- and 8-byte scalars and 4-byte offsets; an offset rewritten is caught by the
    /// parser, which is fine too).
    private mutating func addOptionScalars(_ table: Int) {
        let positions = fields(table).values.sorted()
        for (k, at) in positions.enumerated() {
            let gap = k + 1 < positions.count ? positions[k + 1] - at : 4
            let size = gap >= 4 ? 4 : (gap >= 2 ? 2 : 1)
            if at + size <= bytes.count { slots.append(Slot(offset: at, kind: .option(size: size))) }
        }
    }
}

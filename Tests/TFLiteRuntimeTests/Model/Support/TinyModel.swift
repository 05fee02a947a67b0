import TestSupport
import TFLiteRuntime

/// A small TFLite model described field by field and written with ``ForwardWriter``, so a
/// test can make exactly one thing wrong. Field numbers follow `schema.fbs` (a union takes
/// two: its type, then its value).
struct TinyModel {
    struct Tensor {
        var shape: [Int32] = [2]
        var type: Schema.TensorType = .float32
        var buffer: UInt32 = 0
        var name = "t"
        var shapeSignature: [Int32]? = nil
        var scales: [Float]? = nil
        var zeroPoints: [Int64] = []
        var quantizedDimension: Int32 = 0
    }

    struct Operator {
        var opcodeIndex: UInt32 = 0
        var inputs: [Int32] = [0, 1]
        var outputs: [Int32] = [2]
        var options: Schema.BuiltinOptions? = nil
        /// A custom op's options (a FlexBuffer, for most).
        var customOptions: [UInt8]? = nil
        /// The second options union (StableHLO ops); see `TinyModel+Options2.swift`.
        var options2: Schema.BuiltinOptions2? = nil
    }

    struct Subgraph {
        var tensors: [Tensor] = [Tensor(), Tensor(), Tensor()]
        var inputs: [Int32] = [0, 1]
        var outputs: [Int32] = [2]
        var operators: [Operator] = [Operator()]
    }

    struct Code {
        var deprecatedBuiltinCode: Int8
        var builtinCode: Int32
        var customCode: String? = nil
        /// The operator version; nil leaves the field out (the schema's default, 1).
        var version: Int32? = nil

        init(_ op: Schema.BuiltinOperator) {
            deprecatedBuiltinCode = Int8(clamping: op.rawValue)
            builtinCode = op.rawValue
        }

        init(deprecated: Int8, builtin: Int32, custom: String? = nil) {
            deprecatedBuiltinCode = deprecated
            builtinCode = builtin
            customCode = custom
        }
    }

    /// A buffer: inline `data`, or `external` bytes appended after the FlatBuffer and
    /// addressed by offset and size.
    struct Buffer {
        var data: [UInt8]? = nil
        var external: [UInt8]? = nil
    }

    var version: UInt32 = 3
    var codes: [Code] = [Code(.add)]
    var subgraphs: [Subgraph] = [Subgraph()]
    var buffers: [Buffer] = [Buffer()]
    var metadata: [(name: String, buffer: UInt32)] = []
    var signature: (key: String, inputs: [(String, UInt32)], outputs: [(String, UInt32)])? = nil

    /// Byte positions recorded while writing, for tests that corrupt them afterwards.
    struct Positions {
        var root = 0
        var firstShapeVector = 0
    }

    func bytes() -> [UInt8] { write().bytes }

    func write() -> (bytes: [UInt8], positions: Positions) {
        var w = ForwardWriter(identifier: "TFL3")
        var positions = Positions()
        let root = w.table([4, 4, 4, nil, 4, nil, 4, 4])
        positions.root = root.position
        w.setRoot(root.position)
        w.set(version, at: root.fields[0]!)

        let codeList = w.offsetVector(count: codes.count)
        w.link(root.fields[1]!, to: codeList.position)
        for (slot, code) in zip(codeList.slots, codes) {
            let t = w.table([1, code.customCode == nil ? nil : 4, code.version == nil ? nil : 4, 4])
            w.link(slot, to: t.position)
            w.set(code.deprecatedBuiltinCode, at: t.fields[0]!)
            w.set(code.builtinCode, at: t.fields[3]!)
            if let version = code.version { w.set(version, at: t.fields[2]!) }
            if let custom = code.customCode { w.link(t.fields[1]!, to: w.string(custom)) }
        }

        let subgraphList = w.offsetVector(count: subgraphs.count)
        w.link(root.fields[2]!, to: subgraphList.position)
        for (slot, subgraph) in zip(subgraphList.slots, subgraphs) {
            let s = w.table([4, 4, 4, 4])
            w.link(slot, to: s.position)
            let tensorList = w.offsetVector(count: subgraph.tensors.count)
            w.link(s.fields[0]!, to: tensorList.position)
            for (tslot, tensor) in zip(tensorList.slots, subgraph.tensors) {
                let t = w.table([4, 1, 4, 4, tensor.scales == nil ? nil : 4, nil, nil, tensor.shapeSignature == nil ? nil : 4])
                w.link(tslot, to: t.position)
                let shape = w.vector(tensor.shape)
                if positions.firstShapeVector == 0 { positions.firstShapeVector = shape }
                w.link(t.fields[0]!, to: shape)
                w.set(tensor.type.rawValue, at: t.fields[1]!)
                w.set(tensor.buffer, at: t.fields[2]!)
                w.link(t.fields[3]!, to: w.string(tensor.name))
                if let signature = tensor.shapeSignature { w.link(t.fields[7]!, to: w.vector(signature)) }
                if let scales = tensor.scales {
                    let q = w.table([nil, nil, 4, 4, nil, nil, 4])
                    w.link(t.fields[4]!, to: q.position)
                    w.link(q.fields[2]!, to: w.vector(scales.map(\.bitPattern)))
                    w.link(q.fields[3]!, to: w.vector(tensor.zeroPoints))
                    w.set(tensor.quantizedDimension, at: q.fields[6]!)
                }
            }
            w.link(s.fields[1]!, to: w.vector(subgraph.inputs))
            w.link(s.fields[2]!, to: w.vector(subgraph.outputs))
            let opList = w.offsetVector(count: subgraph.operators.count)
            w.link(s.fields[3]!, to: opList.position)
            for (oslot, op) in zip(opList.slots, subgraph.operators) {
                let hasOptions = op.options != nil, hasOptions2 = op.options2 != nil
                let o = w.table([4, 4, 4, hasOptions ? 1 : nil, hasOptions ? 4 : nil, op.customOptions == nil ? nil : 4,
                                 nil, nil, nil, nil, nil, hasOptions2 ? 1 : nil, hasOptions2 ? 4 : nil])
                w.link(oslot, to: o.position)
                w.set(op.opcodeIndex, at: o.fields[0]!)
                w.link(o.fields[1]!, to: w.vector(op.inputs))
                w.link(o.fields[2]!, to: w.vector(op.outputs))
                if let custom = op.customOptions { w.link(o.fields[5]!, to: w.vector(custom)) }
                if let options = op.options {
                    w.set(options.typeTag, at: o.fields[3]!)
                    let table: (position: Int, fields: [Int?])
                    switch options {
                    case .whileOptions(let x):
                        table = w.table([4, 4])
                        w.set(x.condSubgraphIndex, at: table.fields[0]!)
                        w.set(x.bodySubgraphIndex, at: table.fields[1]!)
                    case .ifOptions(let x):
                        table = w.table([4, 4])
                        w.set(x.thenSubgraphIndex, at: table.fields[0]!)
                        w.set(x.elseSubgraphIndex, at: table.fields[1]!)
                    case .callOnceOptions(let x):
                        table = w.table([4])
                        w.set(x.initSubgraphIndex, at: table.fields[0]!)
                    case .pool2DOptions(let x):
                        table = w.table([1, 4, 4, 4, 4, 1])
                        w.set(x.padding.rawValue, at: table.fields[0]!)
                        w.set(x.strideW, at: table.fields[1]!)
                        w.set(x.strideH, at: table.fields[2]!)
                        w.set(x.filterWidth, at: table.fields[3]!)
                        w.set(x.filterHeight, at: table.fields[4]!)
                        w.set(x.fusedActivationFunction.rawValue, at: table.fields[5]!)
                    case .conv2DOptions(let x):
                        table = w.table([1, 4, 4, 1, 4, 4])
                        w.set(x.padding.rawValue, at: table.fields[0]!)
                        w.set(x.strideW, at: table.fields[1]!)
                        w.set(x.strideH, at: table.fields[2]!)
                        w.set(x.fusedActivationFunction.rawValue, at: table.fields[3]!)
                        w.set(x.dilationWFactor, at: table.fields[4]!)
                        w.set(x.dilationHFactor, at: table.fields[5]!)
                    case .addOptions(let x):
                        table = w.table([1])
                        w.set(x.fusedActivationFunction.rawValue, at: table.fields[0]!)
                    case .reshapeOptions(let x):
                        table = w.table([4])
                        w.link(table.fields[0]!, to: w.vector(x.newShape))
                    case .transposeConvOptions(let x):
                        table = w.table([1, 4, 4, 1])
                        w.set(x.padding.rawValue, at: table.fields[0]!)
                        w.set(x.strideW, at: table.fields[1]!)
                        w.set(x.strideH, at: table.fields[2]!)
                        w.set(x.fusedActivationFunction.rawValue, at: table.fields[3]!)
                    case .sVDFOptions(let x):
                        table = w.table([4, 1])
                        w.set(x.rank, at: table.fields[0]!)
                        w.set(x.fusedActivationFunction.rawValue, at: table.fields[1]!)
                    case .hashtableOptions(let x):
                        table = w.table([4, 1, 1])
                        w.set(x.tableId, at: table.fields[0]!)
                        w.set(x.keyDtype.rawValue, at: table.fields[1]!)
                        w.set(x.valueDtype.rawValue, at: table.fields[2]!)
                    case .skipGramOptions(let x):
                        table = w.table([4, 4, 1])
                        w.set(x.ngramSize, at: table.fields[0]!)
                        w.set(x.maxSkipSize, at: table.fields[1]!)
                        w.set(x.includeAllNgrams ? UInt8(1) : 0, at: table.fields[2]!)
                    default:
                        table = w.table([])
                    }
                    w.link(o.fields[4]!, to: table.position)
                }
                if let options2 = op.options2 {
                    w.set(options2.typeTag, at: o.fields[11]!)
                    w.link(o.fields[12]!, to: Self.writeOptions2(options2, into: &w))
                }
            }
        }

        var pendingExternal: [(field: Int, size: Int, bytes: [UInt8])] = []
        let bufferList = w.offsetVector(count: buffers.count)
        w.link(root.fields[4]!, to: bufferList.position)
        for (slot, buffer) in zip(bufferList.slots, buffers) {
            let b = w.table([buffer.data == nil ? nil : 4, buffer.external == nil ? nil : 8, buffer.external == nil ? nil : 8])
            w.link(slot, to: b.position)
            if let data = buffer.data { w.link(b.fields[0]!, to: w.vector(data)) }
            if let external = buffer.external {
                w.set(UInt64(external.count), at: b.fields[2]!)
                pendingExternal.append((b.fields[1]!, external.count, external))
            }
        }

        let metadataList = w.offsetVector(count: metadata.count)
        w.link(root.fields[6]!, to: metadataList.position)
        for (slot, entry) in zip(metadataList.slots, metadata) {
            let m = w.table([4, 4])
            w.link(slot, to: m.position)
            w.link(m.fields[0]!, to: w.string(entry.name))
            w.set(entry.buffer, at: m.fields[1]!)
        }

        let signatureList = w.offsetVector(count: signature == nil ? 0 : 1)
        w.link(root.fields[7]!, to: signatureList.position)
        if let signature, let slot = signatureList.slots.first {
            let s = w.table([4, 4, 4, nil, 4])
            w.link(slot, to: s.position)
            for (field, maps) in [(0, signature.inputs), (1, signature.outputs)] {
                let list = w.offsetVector(count: maps.count)
                w.link(s.fields[field]!, to: list.position)
                for (mslot, (name, index)) in zip(list.slots, maps) {
                    let m = w.table([4, 4])
                    w.link(mslot, to: m.position)
                    w.link(m.fields[0]!, to: w.string(name))
                    w.set(index, at: m.fields[1]!)
                }
            }
            w.link(s.fields[2]!, to: w.string(signature.key))
        }

        // External buffer data follows the FlatBuffer, 16-byte aligned.
        for (field, _, bytes) in pendingExternal {
            w.pad(to: 16)
            w.set(UInt64(w.bytes.count), at: field)
            w.bytes += bytes
        }
        return (w.bytes, positions)
    }
}

import Kernels

/// Prepares one node: checks its options, types and shapes, declares its output shapes and
/// returns the kernel that `invoke()` will run.
typealias OpPrepare = @Sendable (inout PrepareContext) throws(InterpreterError) -> NodeKernel

/// One op the runtime can run.
struct OpRegistration: Sendable {
    let name: String
    /// The input types the kernels handle, for `tflite ops`.
    var types: [DataType]
    let prepare: OpPrepare
    /// What type the op writes its outputs in, checked before its prepare step runs.
    var outputTypes: OutputTypeRule = .checkedByOp
    /// False for ops whose result depends on state or on other subgraphs, which must never
    /// be evaluated at prepare time even when all their inputs are constant.
    let foldable: Bool
    /// True for element-moving ops whose byte-generic kernel also moves strings: it runs on
    /// the strings' indices (see `SubgraphExecutor+StringMoves.swift`).
    var movesStrings = false
    /// True for a kernel registered by the user (``CustomOperator``), not by this runtime.
    var isUserDefined = false
    /// The neighbouring nodes this op's prepare step can take over (see ``Fusion``); the
    /// fusion pass folds no other node into it.
    var fusions: Set<Fusion> = []
}

/// The table from opcode to kernel. Each op family registers itself in its own
/// `Ops/Builtins+<Family>.swift` file; `OpRegistry.standard` lists the families.
struct OpRegistry: Sendable {
    private var builtins: [Int32: OpRegistration] = [:]
    private var customs: [String: OpRegistration] = [:]

    /// Adds a builtin op. Registering an op twice is a programming error.
    /// Most ops write every output in the type of input 0 (`outputTypes`).
    mutating func register(_ op: Schema.BuiltinOperator, types: [DataType],
                           outputTypes: OutputTypeRule = .sameAs(input: 0), foldable: Bool = true,
                           fusions: Set<Fusion> = [], _ prepare: @escaping OpPrepare) {
        precondition(builtins[op.rawValue] == nil, "\(op.name) registered twice")
        builtins[op.rawValue] = OpRegistration(name: op.name, types: types, prepare: prepare, outputTypes: outputTypes,
                                               foldable: foldable, fusions: fusions)
    }

    /// Lets the element-moving `ops`, already registered, move strings too.
    mutating func allowStrings(_ ops: Schema.BuiltinOperator...) {
        for op in ops {
            guard let r = builtins[op.rawValue] else { preconditionFailure("\(op.name) is not registered") }
            var moving = r
            moving.types = r.types + [.string]
            moving.movesStrings = true
            builtins[op.rawValue] = moving
        }
    }

    /// Adds a custom op by its `custom_code`; it checks its output types itself.
    mutating func register(custom code: String, types: [DataType], foldable: Bool = true,
                           _ prepare: @escaping OpPrepare) {
        precondition(customs[code] == nil, "\(code) registered twice")
        customs[code] = OpRegistration(name: code, types: types, prepare: prepare, foldable: foldable)
    }

    /// Adds or replaces the custom op `registration.name` (see `OpRegistry+Custom.swift`,
    /// which decides whether it may).
    mutating func setCustom(_ registration: OpRegistration) {
        customs[registration.name] = registration
    }

    func registration(for kind: Model.OperatorKind) -> OpRegistration? {
        switch kind {
        case .builtin(let op): return builtins[op.rawValue]
        case .custom(let code): return customs[code]
        }
    }

    /// Every registered op, builtins by name then custom ops.
    var all: [OpRegistration] {
        builtins.values.sorted { $0.name < $1.name } + customs.values.sorted { $0.name < $1.name }
    }
}

extension OpRegistry {
    /// The element types of the ops that move elements without changing them (concatenation
    /// and splitting, slicing, gathering, padding, transposition and its relatives): their
    /// kernels work on bytes, so one registration covers every fixed-size element type.
    static let elementMovingTypes: [DataType] = [.float32, .float16, .int8, .uInt8, .int16, .int32, .int64, .bool]
}

/// What the runtime supports, for `tflite ops` and `tflite inspect`.
public enum SupportedOperators {
    /// One supported op: its TFLite name (builtin name or custom code) and input types.
    public struct Entry: Sendable {
        public let name: String
        public let types: [DataType]
        public let isCustom: Bool
    }

    /// Every op the standard registry runs.
    public static var all: [Entry] {
        let r = OpRegistry.standard
        return r.all.map { reg in
            Entry(name: reg.name, types: reg.types, isCustom: r.registration(for: .custom(reg.name)) != nil)
        }
    }

    /// True when the standard registry has a kernel for this op.
    public static func contains(_ kind: Model.OperatorKind) -> Bool {
        OpRegistry.standard.registration(for: kind) != nil
    }
}

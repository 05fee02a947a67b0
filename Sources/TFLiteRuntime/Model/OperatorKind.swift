extension Model {
    /// What an operator code denotes.
    public enum OperatorKind: Hashable, Sendable, CustomStringConvertible {
        /// A builtin operator (possibly one this schema does not know).
        case builtin(Schema.BuiltinOperator)
        /// A custom operator, by its `custom_code`.
        case custom(String)

        /// Resolves an operator code. Old models store the code in the byte-sized
        /// `deprecated_builtin_code` only, newer ones in `builtin_code` with the byte field set
        /// to the placeholder 127, so the larger of the two is the code.
        init(code: Schema.OperatorCode) {
            let builtin = max(Int32(code.deprecatedBuiltinCode), code.builtinCode.rawValue)
            if builtin == Schema.BuiltinOperator.custom.rawValue {
                self = .custom(code.customCode ?? "")
            } else {
                self = .builtin(Schema.BuiltinOperator(rawValue: builtin))
            }
        }

        /// The builtin's schema name (`CONV_2D`) or the custom code
        /// (`TFLite_Detection_PostProcess`).
        public var name: String {
            switch self {
            case .builtin(let op): op.name
            case .custom(let code): code
            }
        }

        public var description: String { name }
    }
}

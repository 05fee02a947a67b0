/// LiteRT's static hash tables by table id: HASHTABLE names one (creating it on first use),
/// HASHTABLE_IMPORT fills it once, HASHTABLE_FIND and HASHTABLE_SIZE read it. Like resource
/// variables they outlive invocations and every subgraph of the interpreter sees them, so a
/// table filled by an initialiser subgraph (CALL_ONCE) serves the main graph.
final class HashTableStore {
    /// One table: int64 keys to string values, or string keys to int64 values (the only two
    /// forms LiteRT has).
    final class Table {
        enum Entries {
            case int64ToString([Int64: [UInt8]])
            case stringToInt64([[UInt8]: Int64])
        }

        let keyType: DataType
        let valueType: DataType
        var entries: Entries
        /// Set by the first import; later imports change nothing, as in LiteRT.
        var isInitialized = false

        init(keyType: DataType, valueType: DataType) {
            self.keyType = keyType
            self.valueType = valueType
            entries = keyType == .int64 ? .int64ToString([:]) : .stringToInt64([:])
        }

        var count: Int {
            switch entries {
            case .int64ToString(let d): return d.count
            case .stringToInt64(let d): return d.count
            }
        }
    }

    /// Whether a table may map `key` to `value`.
    static func supports(key: DataType, value: DataType) -> Bool {
        (key == .int64 && value == .string) || (key == .string && value == .int64)
    }

    private var tables: [Int32: Table] = [:]

    /// The table `id`, created with these types if it does not exist yet (an existing one
    /// keeps its own types, which its readers check).
    func table(_ id: Int32, keyType: DataType, valueType: DataType) -> Table {
        if let t = tables[id] { return t }
        let t = Table(keyType: keyType, valueType: valueType)
        tables[id] = t
        return t
    }

    func table(_ id: Int32) -> Table? { tables[id] }
}

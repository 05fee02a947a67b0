import Kernels
import KernelSelection

/// What every subgraph executor of one interpreter shares: the model, the options, the
/// worker threads, the resource variables, hash tables and LLM KV caches (which outlive invocations, as in
/// TFLite).
final class ExecutionEnvironment {
    let model: Model
    let registry: OpRegistry
    let threads: ThreadPool
    let memoryLimit: Int
    /// The instruction-set variant of the optimised kernels this CPU runs.
    let kernels: OptimizedKernels
    /// What every node's kernel is planned with: `Interpreter.Options.useReferenceKernels`
    /// is read here and nowhere else.
    let kernelChoice: KernelChoice
    let resources = ResourceStore()
    let hashTables = HashTableStore()
    let kvCaches = KVCacheStore()
    let control: InvocationControl
    let maxLoopIterations: Int
    /// Subgraphs CALL_ONCE has already run (they run once per interpreter).
    var initializedSubgraphs: Set<Int> = []

    init(model: Model, options: Interpreter.Options) {
        self.model = model
        registry = options.registry
        threads = ThreadPool(threadCount: options.resolvedThreadCount)
        memoryLimit = options.memoryLimit
        control = InvocationControl(timeLimit: options.timeLimit)
        maxLoopIterations = options.maxLoopIterations
        kernels = options.instructionSet.map(KernelSelection.kernels(atMost:)) ?? KernelSelection.best
        kernelChoice = options.useReferenceKernels ? .referenceOnly : .optimized(kernels)
    }
}

/// Resource variables by id: VAR_HANDLE hands out ids, ASSIGN_VARIABLE stores a value,
/// READ_VARIABLE reads it back.
final class ResourceStore {
    /// A variable's current value.
    struct Value {
        var type: DataType
        var shape: [Int]
        var bytes: [UInt8]
    }

    private var ids: [String: Int32] = [:]
    private(set) var values: [Int32: Value] = [:]

    /// The id of the variable named by `container` and `sharedName`, created on first use.
    func id(container: String, sharedName: String) -> Int32 {
        let key = container + "/" + sharedName
        if let id = ids[key] { return id }
        let id = Int32(ids.count)
        ids[key] = id
        return id
    }

    func value(_ id: Int32) -> Value? { values[id] }

    func assign(_ id: Int32, _ value: Value) { values[id] = value }
}

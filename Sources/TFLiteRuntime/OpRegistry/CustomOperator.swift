/// A kernel for a custom operator that this runtime does not implement, written in Swift and
/// registered on ``Interpreter/Options`` by the operator's custom code (the name a model's
/// `CUSTOM` operator code carries, e.g. `TransformLandmarks`).
///
/// A custom operator runs like a builtin one. Its `prepare` closure runs once per node when
/// tensors are allocated: it reads the node's input types and shapes and its custom options
/// (usually a FlexBuffer map, read with `FlatBuffers.FlexBuffer`), checks them, declares the
/// shape of every output, and returns the kernel. The kernel runs at each `invoke()` on
/// typed views of the inputs and of the outputs in the interpreter's planned memory (the same
/// arena the builtin kernels write to), timed per node by `invokeProfiled()`. An error thrown
/// by either is reported as an ``InterpreterError`` naming the node and the operator.
///
/// ```swift
/// let scale = CustomOperator(name: "Scale") { node in
///     let x = try node.input(0)
///     guard x.type == .float32 else { throw CustomOperatorError("input 0 must be float32, not \(x.type)") }
///     let factor = try FlexBuffer.root(of: node.customOptions).map["factor"]?.asFloat ?? 1
///     try node.setOutput(0, shape: x.shape)
///     return { io in
///         let input = io.input(0, as: Float.self), output = io.output(0, as: Float.self)
///         for i in input.indices { output[i] = input[i] * factor }
///     }
/// }
/// var options = Interpreter.Options()
/// try options.addCustomOperator(scale)
/// ```
///
/// `prepare` may run on any thread (each interpreter prepares on the thread that calls
/// `allocateTensors()`), hence `@Sendable`; the kernel it returns belongs to one interpreter
/// and runs on the thread that calls `invoke()`. See `docs/custom-ops.md`.
public struct CustomOperator: Sendable {
    /// Checks a node and returns its kernel. Throw ``CustomOperatorError`` (or any error) to
    /// refuse the node; the interpreter reports it as ``InterpreterError/invalidNode(node:op:reason:)``.
    public typealias Prepare = @Sendable (inout Preparation) throws -> Kernel

    /// Computes a node's outputs from its inputs. It should not allocate: views of all tensors
    /// are handed in, and whatever the kernel needs besides can be made in `prepare`. Errors
    /// are reported as ``InterpreterError/invokeFailed(node:op:reason:)``.
    public typealias Kernel = (Invocation) throws -> Void

    /// The custom code this kernel runs (matched exactly against the model's operator codes).
    public let name: String
    /// The operator versions (the operator code's `version`) the kernel implements; a node of
    /// another version is refused at allocation as an unsupported operator.
    public let versions: ClosedRange<Int>
    let prepare: Prepare

    /// A kernel for the custom operator `name`, at `versions` of it (by default every one).
    public init(name: String, versions: ClosedRange<Int> = 1...Int(Int32.max), prepare: @escaping Prepare) {
        self.name = name
        self.versions = versions
        self.prepare = prepare
    }
}

/// Why a custom operator refused a node, failed at run time, or could not be registered. Its
/// description is the message; the interpreter adds the node index and operator name.
public struct CustomOperatorError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in words.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

extension CustomOperator {
    /// A tensor as a custom operator's `prepare` sees it.
    public struct TensorDescription {
        /// The tensor's name in the model.
        public let name: String
        /// Its element type.
        public let type: DataType
        /// Its shape for this allocation (after input resizes and shape inference).
        public let shape: [Int]
        /// Its quantisation parameters, for quantised tensors.
        public let quantization: QuantizationParameters?
        /// The values of a constant tensor (weights, or a tensor computed from weights at
        /// allocation); nil otherwise. Valid while `prepare` runs.
        let constantData: UnsafeRawPointer?

        /// Whether the tensor's values are known at allocation (weights and constants).
        public var isConstant: Bool { constantData != nil }

        /// The number of elements (the product of ``shape``).
        public var elementCount: Int { shape.reduce(1, *) }

        /// The values of a constant tensor, copied; nil when the tensor is not constant or `T`
        /// is not its element type.
        public func constantValues<T: TensorElement>(as: T.Type = T.self) -> [T]? {
            guard let constantData, T.dataType == type else { return nil }
            return Array(UnsafeBufferPointer(start: constantData.assumingMemoryBound(to: T.self), count: elementCount))
        }
    }

    /// What `prepare` reads about its node, and where it declares the node's outputs.
    public struct Preparation {
        /// The node's index in its subgraph (as errors and profiles name it).
        public let node: Int
        /// The operator's custom code.
        public let name: String
        /// The version of the operator code the model gives the node.
        public let version: Int
        /// The operator's `custom_options` bytes (empty when it has none); most converters
        /// write a FlexBuffer map, read with `FlexBuffer.root(of:)`.
        public let customOptions: [UInt8]
        /// The inputs in node order; nil marks an optional input the model omits.
        public let inputs: [TensorDescription?]
        /// The outputs as the model declares them (type, and a shape `setOutput` replaces).
        public let outputs: [TensorDescription]
        /// A name for the kernel, shown beside the node by `tflite bench --profile-nodes`
        /// and in ``NodeTiming/kernel``; nil names it by the runtime's rule for an op's only
        /// kernel (`addone.f32.reference` for custom code `AddOne` on float32).
        public var kernelName: String?
        /// What `setOutput` declared, by output.
        var declared: [(shape: [Int], type: DataType)?]

        init(node: Int, name: String, version: Int, customOptions: [UInt8],
             inputs: [TensorDescription?], outputs: [TensorDescription]) {
            self.node = node
            self.name = name
            self.version = version
            self.customOptions = customOptions
            self.inputs = inputs
            self.outputs = outputs
            declared = Array(repeating: nil, count: outputs.count)
        }

        /// Input `index`, which must be present: throws when the node has fewer inputs or
        /// the model omits this one.
        public func input(_ index: Int) throws(CustomOperatorError) -> TensorDescription {
            guard index >= 0, index < inputs.count else {
                throw CustomOperatorError("input \(index) is missing: the node has \(inputs.count) input\(inputs.count == 1 ? "" : "s")")
            }
            guard let tensor = inputs[index] else { throw CustomOperatorError("input \(index) is omitted by the model") }
            return tensor
        }

        /// Declares that output `index` will have `shape`, and type `type` (nil keeps the type
        /// the model declares). Every output must be declared before `prepare` returns; the
        /// kernel's output views have exactly this size.
        public mutating func setOutput(_ index: Int, shape: [Int], type: DataType? = nil) throws(CustomOperatorError) {
            guard index >= 0, index < outputs.count else {
                throw CustomOperatorError("output \(index) does not exist: the node has \(outputs.count) output\(outputs.count == 1 ? "" : "s")")
            }
            guard shape.allSatisfy({ $0 >= 0 }) else {
                throw CustomOperatorError("output \(index) cannot have shape \(shape): dimensions must not be negative")
            }
            let type = type ?? outputs[index].type
            guard type.byteSize != nil else {
                throw CustomOperatorError("output \(index) cannot have type \(type): custom kernels write types of a fixed element size")
            }
            declared[index] = (shape, type)
        }

        /// Throws unless the node has `inputs` inputs and `outputs` outputs.
        public func expect(inputs: Int, outputs: Int) throws(CustomOperatorError) {
            guard self.inputs.count == inputs, self.outputs.count == outputs else {
                throw CustomOperatorError("expects \(inputs) input\(inputs == 1 ? "" : "s") and \(outputs) output\(outputs == 1 ? "" : "s"), has \(self.inputs.count) and \(self.outputs.count)")
            }
        }
    }

    /// The tensors a kernel reads and writes at one invocation: views into the interpreter's
    /// memory, valid only while the kernel runs. Input views are read-only (they may be the
    /// model's mapped weights); output views are the node's planned memory, whose contents
    /// before the kernel runs are unspecified, so a kernel writes every element.
    public struct Invocation {
        let pointers: UnsafeMutablePointer<UnsafeMutableRawPointer>
        let plan: CustomNodePlan

        /// The number of inputs (omitted ones included).
        public var inputCount: Int { plan.inputs.count }
        /// The number of outputs.
        public var outputCount: Int { plan.outputs.count }

        /// The elements of input `index`. `T` must be the input's element type (a programming
        /// error otherwise, which stops the program); an omitted input gives an empty view.
        public func input<T: TensorElement>(_ index: Int, as: T.Type = T.self) -> UnsafeBufferPointer<T> {
            let slot = plan.inputs[index]
            guard slot.tensor >= 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
            precondition(slot.type == T.dataType, "input \(index) of \(plan.name) has type \(slot.type), read as \(T.dataType)")
            return UnsafeBufferPointer(start: pointers[slot.tensor].assumingMemoryBound(to: T.self), count: slot.elementCount)
        }

        /// The elements of output `index`, to be written. `T` must be the type `prepare`
        /// declared for it.
        public func output<T: TensorElement>(_ index: Int, as: T.Type = T.self) -> UnsafeMutableBufferPointer<T> {
            let slot = plan.outputs[index]
            precondition(slot.type == T.dataType, "output \(index) of \(plan.name) has type \(slot.type), written as \(T.dataType)")
            return UnsafeMutableBufferPointer(start: pointers[slot.tensor].assumingMemoryBound(to: T.self), count: slot.elementCount)
        }

        /// The bytes of input `index`, for types without a Swift element type (float16, ...).
        public func inputBytes(_ index: Int) -> UnsafeRawBufferPointer {
            let slot = plan.inputs[index]
            guard slot.tensor >= 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return UnsafeRawBufferPointer(start: pointers[slot.tensor], count: slot.byteCount)
        }

        /// The bytes of output `index`.
        public func outputBytes(_ index: Int) -> UnsafeMutableRawBufferPointer {
            let slot = plan.outputs[index]
            return UnsafeMutableRawBufferPointer(start: pointers[slot.tensor], count: slot.byteCount)
        }

        /// The shape of input `index` (empty for an omitted input).
        public func inputShape(_ index: Int) -> [Int] { plan.inputs[index].shape }

        /// The shape of output `index`, as `prepare` declared it.
        public func outputShape(_ index: Int) -> [Int] { plan.outputs[index].shape }
    }
}

/// What a prepared custom node's kernel reads at every invocation, computed once by prepare:
/// a class, so that handing it to the kernel copies one reference and allocates nothing.
final class CustomNodePlan {
    struct Slot {
        /// The tensor's index in the subgraph; -1 for an omitted input.
        let tensor: Int
        let type: DataType
        let shape: [Int]
        let elementCount: Int
        let byteCount: Int
    }

    let name: String
    let inputs: [Slot]
    let outputs: [Slot]

    init(name: String, inputs: [Slot], outputs: [Slot]) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
    }
}

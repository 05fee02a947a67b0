/// Runs a model once on `.npy` arrays: the logic behind `tflite run` and the conformance
/// tests, so both exercise exactly the same path.
public enum ModelRunner {
    /// Loads `modelPath`, resizes inputs whose shape differs (when the model allows), runs
    /// the main graph or the signature `signature`, and returns the outputs in model order
    /// (signature order with a signature). `timeLimit` bounds the invocation (see
    /// ``Interpreter/Options/timeLimit``).
    public static func run(modelPath: String, inputs: [NPYArray], threads: Int? = nil,
                           signature: String? = nil, timeLimit: Duration? = nil) throws(InterpreterError) -> [NPYArray] {
        var options = Interpreter.Options(threadCount: threads)
        options.timeLimit = timeLimit
        let interpreter = try Interpreter(modelPath: modelPath, options: options)
        if let signature {
            let runner = try interpreter.signatureRunner(key: signature)
            guard inputs.count == runner.inputNames.count else {
                throw .invalidTensorIndex(index: inputs.count, count: runner.inputNames.count, role: "input")
            }
            for (name, array) in zip(runner.inputNames, inputs) where try runner.inputShape(named: name) != array.shape {
                try runner.resizeInput(named: name, to: array.shape)
            }
            try runner.allocateTensors()
            for (name, array) in zip(runner.inputNames, inputs) {
                try checkType(array, against: runner.input(named: name))
                try runner.copy(tensorBytes(array), toInputNamed: name)
            }
            try runner.invoke()
            return try runner.outputNames.map { (name) throws(InterpreterError) in try npy(runner.output(named: name)) }
        }
        guard inputs.count == interpreter.inputTensorCount else {
            throw .invalidTensorIndex(index: inputs.count, count: interpreter.inputTensorCount, role: "input")
        }
        for (i, array) in inputs.enumerated() {
            let current = interpreter.main.tensors[interpreter.main.inputs[i]].shape
            if current != array.shape { try interpreter.resizeInput(at: i, to: array.shape) }
        }
        try interpreter.allocateTensors()
        for (i, array) in inputs.enumerated() {
            try checkType(array, against: interpreter.input(at: i))
            try interpreter.copy(tensorBytes(array), toInputAt: i)
        }
        try interpreter.invoke()
        return try (0..<interpreter.outputTensorCount).map { (i) throws(InterpreterError) in try npy(interpreter.output(at: i)) }
    }

    private static func checkType(_ array: NPYArray, against tensor: Tensor) throws(InterpreterError) {
        guard tensor.dataType.npyDType == array.dtype else {
            throw .invalidShape(tensor: tensor.name, reason: "input has dtype \(array.dtype.name), the model expects \(tensor.dataType)")
        }
    }

    /// An array's elements as a tensor holds them: byte strings packed, others as they are.
    private static func tensorBytes(_ array: NPYArray) -> [UInt8] {
        array.byteStrings.map(PackedStrings.encode) ?? array.data
    }

    private static func npy(_ tensor: Tensor) throws(InterpreterError) -> NPYArray {
        guard let dtype = tensor.dataType.npyDType else {
            throw .invalidShape(tensor: tensor.name, reason: "type \(tensor.dataType) cannot be written as .npy")
        }
        let strings = tensor.byteStrings
        if dtype == .bytes && strings == nil {
            throw .invalidShape(tensor: tensor.name, reason: "malformed string data")
        }
        do throws(NPYError) {
            if let strings { return try NPYArray(strings: strings, shape: tensor.shape) }
            return try NPYArray(dtype: dtype, shape: tensor.shape, data: tensor.data)
        } catch {
            throw .invalidShape(tensor: tensor.name, reason: "\(error)")
        }
    }
}

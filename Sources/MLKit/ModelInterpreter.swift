import Dispatch
import Foundation
internal import TFLiteTasks

/// What ``ModelInterpreter/run(inputs:options:completion:)`` calls back with: the outputs, or
/// an error (ML Kit's `ModelInterpreterRunCallback`).
public typealias ModelInterpreterRunCallback = (ModelOutputs?, (any Error)?) -> Void

/// Runs a custom TensorFlow Lite model on inputs you prepare (ML Kit for Firebase's
/// `ModelInterpreter`).
///
/// ```swift
/// let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: modelPath))
/// interpreter.run(inputs: inputs, options: ioOptions) { outputs, error in
///     guard error == nil, let outputs else { return }
///     let probabilities = (try? outputs.output(index: 0) as? [[NSNumber]])?[0]
/// }
/// ```
///
/// Every error is an `NSError` in the `MLKit` domain: code 3 (invalid argument) when the
/// declared formats or the inputs do not fit the model, 13 when the model fails to run.
public final class ModelInterpreter: @unchecked Sendable {
    /// Accepted for ML Kit's callers that switch it off; this package collects nothing.
    public var isStatsCollectionEnabled = false

    /// The loaded model, or why it could not be loaded.
    private let model: Result<TFLiteTasks.LocalModel, NSError>
    /// Runs one at a time, off the caller's thread (ML Kit's interpreter is thread safe).
    private let work = DispatchQueue(label: "MLKit.ModelInterpreter")
    /// The interpreter prepared for the last formats used (touched only on `work`), so runs
    /// with the same options prepare the model once.
    private var prepared: (formats: TFLiteTasks.ModelInputOutputOptions, interpreter: TFLiteTasks.ModelInterpreter)?

    private init(model: Result<TFLiteTasks.LocalModel, NSError>) {
        self.model = model
    }

    /// An interpreter for a model on the device. It never fails here: a missing or invalid
    /// model is reported by every run.
    public static func modelInterpreter(localModel: LocalModel) -> ModelInterpreter {
        ModelInterpreter(model: Result { () throws(NSError) in try localModel.load() })
    }

    /// An interpreter for the downloaded file of `remoteModel` (downloaded by
    /// `ModelManager.modelManager()`). As in ML Kit the model must be downloaded when the
    /// interpreter is made; otherwise every run reports "not downloaded" (check
    /// `isModelDownloaded` first and use a local model otherwise).
    public static func modelInterpreter(remoteModel: CustomRemoteModel) -> ModelInterpreter {
        ModelInterpreter(model: Result { () throws(NSError) in
            try LocalModel(path: ModelManager.modelManager().latestPath(remoteModel)).load()
        })
    }

    /// Runs the model on `inputs`, read as `options` declares them, off the calling thread,
    /// and calls `completion` on the main queue, as ML Kit does (in a command-line program
    /// the main queue runs under `dispatchMain()` or a run loop).
    public func run(inputs: ModelInputs, options: ModelInputOutputOptions, completion: @escaping ModelInterpreterRunCallback) {
        let values = inputs.values, formats = options.formats
        nonisolated(unsafe) let completion = completion
        work.async {
            let outcome = Result { () throws(NSError) in try self.outputs(values, formats) }
            DispatchQueue.main.async {
                switch outcome {
                case .success(let outputs): completion(outputs, nil)
                case .failure(let error): completion(nil, error)
                }
            }
        }
    }

    private func outputs(_ values: [ModelInput], _ formats: TFLiteTasks.ModelInputOutputOptions) throws(NSError) -> ModelOutputs {
        let interpreter = try self.interpreter(formats)
        guard values.count == formats.inputFormats.count else {
            throw VisionError.failed("\(values.count) inputs given; the options declare \(formats.inputFormats.count)")
        }
        var inputs = TFLiteTasks.ModelInputs()
        for (i, value) in values.enumerated() {
            guard let format = formats.inputFormats[i] else { throw VisionError.failed("input \(i) has no declared format") }
            inputs.addInput(bytes: try value.bytes(index: i, format: format))
        }
        do {
            return ModelOutputs(outputs: try interpreter.run(inputs: inputs), formats: formats.outputFormats)
        } catch {
            throw VisionError.failed(error, code: error.isFormatError ? .invalidArgument : .internalError)
        }
    }

    /// The interpreter for `formats`, which it checks against the model.
    private func interpreter(_ formats: TFLiteTasks.ModelInputOutputOptions) throws(NSError) -> TFLiteTasks.ModelInterpreter {
        if let prepared, prepared.formats == formats { return prepared.interpreter }
        let model = try model.get()
        guard !formats.inputFormats.isEmpty, !formats.outputFormats.isEmpty else {
            throw VisionError.failed("the options declare no \(formats.inputFormats.isEmpty ? "input" : "output") formats; declare every input and output of the model")
        }
        do {
            let interpreter = try TFLiteTasks.ModelInterpreter(localModel: model, options: formats)
            prepared = (formats, interpreter)
            return interpreter
        } catch {
            throw VisionError.failed(error, code: error.isFormatError ? .invalidArgument : .internalError)
        }
    }
}

private extension TaskError {
    /// Whether the declared formats or the inputs are at fault, rather than the model.
    var isFormatError: Bool {
        if case .invalidFormat = self { return true }
        return false
    }
}

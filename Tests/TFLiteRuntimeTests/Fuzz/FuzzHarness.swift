import Foundation
import TestSupport
import TFLiteRuntime

/// Takes one untrusted model as far as it goes: load, allocate, fill the inputs, invoke, read
/// every output. Each stage may throw; nothing may crash, hang or read out of bounds (the
/// long runs use AddressSanitizer, see `Scripts/sanitize.sh`).
enum FuzzHarness {
    enum Outcome: String, CaseIterable {
        case rejectedAtLoad = "rejected at load"
        case rejectedAtInterpreter = "rejected by the interpreter"
        case rejectedAtAllocate = "rejected at allocate"
        case failedAtInvoke = "failed at invoke"
        case ran = "ran"
    }

    /// Bounds that keep a hostile variant from taking the machine: a small memory limit, a
    /// short loop bound and a time limit per invocation.
    static var options: Interpreter.Options {
        var options = Interpreter.Options(threadCount: 2)
        options.memoryLimit = 64 << 20
        options.maxLoopIterations = 1_000
        options.timeLimit = .seconds(5)
        return options
    }

    /// Where the variant about to run is written when `TFLITE_FUZZ_SAVE` names a file, so the
    /// one that crashed a long run can be replayed with `tflite run`.
    static let savePath = ProcessInfo.processInfo.environment["TFLITE_FUZZ_SAVE"]

    /// - Parameter afterLoad: more checks of the loaded model, run before it is interpreted.
    static func exercise(_ bytes: [UInt8], _ rng: inout SplitMix64,
                         afterLoad: (Model) -> Void = { _ in }) -> Outcome {
        if let savePath { _ = FileManager.default.createFile(atPath: savePath, contents: Data(bytes)) }
        guard let model = try? Model(bytes: bytes) else { return .rejectedAtLoad }
        afterLoad(model)
        guard let interpreter = try? Interpreter(model: model, options: options) else { return .rejectedAtInterpreter }
        do {
            try interpreter.allocateTensors()
        } catch {
            return .rejectedAtAllocate
        }
        do {
            for i in 0..<interpreter.inputTensorCount {
                let input = try interpreter.input(at: i)
                try interpreter.copy(values(for: input, &rng), toInputAt: i)
            }
            try interpreter.invoke()
            var sum = 0
            for i in 0..<interpreter.outputTensorCount {
                let output = try interpreter.output(at: i)
                for byte in output.data { sum &+= Int(byte) }
                _ = output.dequantized()
            }
            withExtendedLifetime(sum) {}
            return .ran
        } catch {
            return .failedAtInvoke
        }
    }

    /// Input bytes of the tensor's size: mostly values a real input could hold (small floats,
    /// small integers, which index and count), sometimes raw bytes (NaNs, huge values).
    static func values(for tensor: Tensor, _ rng: inout SplitMix64) -> [UInt8] {
        let count = tensor.data.count
        if rng.next() % 4 == 0 { return (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        switch tensor.dataType {
        case .float32:
            let floats = (0..<count / 4).map { _ in Float(Int(rng.next() % 2001) - 1000) / 250 }
            return floats.withUnsafeBytes { Array($0) }
        case .int32:
            let ints = (0..<count / 4).map { _ in Int32(rng.next() % 4) }
            return ints.withUnsafeBytes { Array($0) }
        case .int64:
            let ints = (0..<count / 8).map { _ in Int64(rng.next() % 4) }
            return ints.withUnsafeBytes { Array($0) }
        case .bool:
            return (0..<count).map { _ in UInt8(rng.next() % 2) }
        default:
            return (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        }
    }
}

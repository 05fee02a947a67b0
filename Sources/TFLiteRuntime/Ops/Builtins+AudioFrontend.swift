import FlatBuffers
import Kernels

/// TFLite Micro's signal-library custom ops, the audio front end of its micro_speech models:
/// window, FFT auto-scale, real FFT and energy (Builtins+AudioFrontendSpectrum.swift), then
/// the mel filter bank, its square root, spectral subtraction, PCAN and log
/// (Builtins+AudioFrontendFilterBank.swift). Each op checks its tensors as TFLite Micro's
/// prepare does, and further wherever TFLite Micro would read or write out of bounds.
extension OpRegistry {
    mutating func registerAudioFrontendOps() {
        register(custom: "SignalWindow", types: [.int16], prepareSignalWindow)
        register(custom: "SignalFftAutoScale", types: [.int16], prepareSignalFFTAutoScale)
        register(custom: "SignalRfft", types: [.int16, .int32, .float32], prepareSignalRFFT)
        register(custom: "SignalEnergy", types: [.int16], prepareSignalEnergy)
        register(custom: "SignalFilterBank", types: [.uInt32], prepareSignalFilterBank)
        register(custom: "SignalFilterBankSquareRoot", types: [.uInt64], prepareSignalFilterBankSquareRoot)
        // The noise estimate is state carried from one invocation to the next.
        register(custom: "SignalFilterBankSpectralSubtraction", types: [.uInt32], foldable: false,
                 prepareSignalSpectralSubtraction)
        register(custom: "SignalPCAN", types: [.uInt32], prepareSignalPCAN)
        register(custom: "SignalFilterBankLog", types: [.uInt32], prepareSignalFilterBankLog)
    }
}

/// A signal op's options: a FlexBuffer map, read by key. (TFLite Micro reads entries by
/// their position in the key-sorted map, which names the same entries in a well-formed
/// model; by key a missing option is an error rather than a neighbour's value.)
struct SignalOptions {
    private let map: FlexBuffer.Map
    private let ctx: PrepareContext

    init(_ ctx: PrepareContext) throws(InterpreterError) {
        guard let bytes = ctx.customOptions, !bytes.isEmpty else { throw ctx.invalid("has no custom options") }
        do {
            map = try FlexBuffer.root(of: bytes).map
        } catch {
            throw ctx.invalid("custom options are not a FlexBuffer map: \(error)")
        }
        self.ctx = ctx
    }

    private func value(_ key: String) throws(InterpreterError) -> FlexBuffer.Reference {
        let found: FlexBuffer.Reference?
        do {
            found = try map[key]
        } catch {
            throw ctx.invalid("custom options cannot be read: \(error)")
        }
        guard let found, !found.isNull else { throw ctx.invalid("option '\(key)' is missing") }
        return found
    }

    /// The integer option `key`, which must lie in `range`.
    func int(_ key: String, in range: ClosedRange<Int64>) throws(InterpreterError) -> Int {
        let ref = try value(key), v: Int64
        do {
            v = try ref.asInt
        } catch {
            throw ctx.invalid("option '\(key)': \(error)")
        }
        guard range.contains(v) else { throw ctx.invalid("option '\(key)' = \(v) is outside \(range)") }
        return Int(v)
    }

    /// The boolean option `key` (a boolean, or an integer: non-zero is true).
    func bool(_ key: String) throws(InterpreterError) -> Bool {
        let ref = try value(key)
        do {
            return try ref.asBool
        } catch {
            throw ctx.invalid("option '\(key)': \(error)")
        }
    }
}

extension PrepareContext {
    /// Requires `t` (named `role` in errors) to have `type` and, when given, `rank`.
    func requireSignal(_ t: TensorInfo, _ type: DataType, rank: Int? = nil, _ role: String) throws(InterpreterError) {
        guard t.type == type else { throw invalid("\(role) must be \(type.name), is \(t.type.name)") }
        if let rank, t.rank != rank { throw invalid("\(role) must have rank \(rank), has shape \(t.shape)") }
    }
}

extension InvokeContext {
    /// Tensor `t`'s data as `count` values of `T`.
    @inline(__always)
    func values<T>(_ t: Int, _ count: Int, as: T.Type) -> UnsafeBufferPointer<T> {
        UnsafeBufferPointer(start: data(t, as: T.self), count: count)
    }

    /// Tensor `t`'s data as `count` writable values of `T`.
    @inline(__always)
    func mutableValues<T>(_ t: Int, _ count: Int, as: T.Type) -> UnsafeMutableBufferPointer<T> {
        UnsafeMutableBufferPointer(start: data(t, as: T.self), count: count)
    }
}

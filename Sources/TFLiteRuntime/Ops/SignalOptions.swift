import FlatBuffers
import Kernels

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

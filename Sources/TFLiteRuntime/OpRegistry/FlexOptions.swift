import FlatBuffers

/// The integer, float and boolean entries of a custom op's FlexBuffer map; a missing key
/// reads as zero (false), as LiteRT's `AsInt64` / `AsFloat` / `AsBool` do.
struct FlexOptions {
    let map: FlexBuffer.Map?

    init(_ ctx: PrepareContext) throws(InterpreterError) {
        guard let bytes = ctx.customOptions, !bytes.isEmpty else { map = nil; return }
        do { map = try FlexBuffer.root(of: bytes).map } catch { throw ctx.invalid("bad custom options: \(error)") }
    }

    func int(_ key: String, _ ctx: PrepareContext) throws(InterpreterError) -> Int {
        do {
            guard let v = try map?[key], !v.isNull else { return 0 }
            let value = try v.asInt
            guard abs(value) < 1 << 31 else { throw ctx.invalid("option \(key) = \(value) is out of range") }
            return Int(value)
        } catch let error as InterpreterError { throw error } catch { throw ctx.invalid("bad option \(key): \(error)") }
    }

    func float(_ key: String, _ ctx: PrepareContext) throws(InterpreterError) -> Float {
        do {
            guard let v = try map?[key], !v.isNull else { return 0 }
            return try v.asFloat
        } catch { throw ctx.invalid("bad option \(key): \(error)") }
    }

    func bool(_ key: String, _ ctx: PrepareContext) throws(InterpreterError) -> Bool {
        do {
            guard let v = try map?[key], !v.isNull else { return false }
            return try v.asBool
        } catch { throw ctx.invalid("bad option \(key): \(error)") }
    }
}

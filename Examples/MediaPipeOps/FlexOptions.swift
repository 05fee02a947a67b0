import FlatBuffers
import TFLiteRuntime

/// A MediaPipe operator's custom options: a FlexBuffer map read the way MediaPipe's parsers
/// read it (`flexbuffers::Map::operator[]`), where a missing key is null and null reads as 0
/// or an empty vector; the operators then reject the values they cannot use.
struct FlexOptions {
    let map: FlexBuffer.Map?

    init(_ bytes: [UInt8]) throws(CustomOperatorError) {
        guard !bytes.isEmpty else {
            map = nil
            return
        }
        do {
            map = try FlexBuffer.root(of: bytes).map
        } catch {
            throw CustomOperatorError("custom options are not a FlexBuffer map: \(error)")
        }
    }

    private func value(_ key: String) throws(CustomOperatorError) -> FlexBuffer.Reference? {
        do {
            return try map?[key]
        } catch {
            throw CustomOperatorError("custom option '\(key)': \(error)")
        }
    }

    /// An `int32` option (`AsInt32`); a value outside that range is refused rather than
    /// truncated.
    func int32(_ key: String) throws(CustomOperatorError) -> Int {
        guard let v = try value(key), !v.isNull else { return 0 }
        do {
            let n = try v.asInt
            guard let exact = Int32(exactly: n) else { throw CustomOperatorError("custom option '\(key)' = \(n) is outside the int32 range") }
            return Int(exact)
        } catch let error as CustomOperatorError {
            throw error
        } catch {
            throw CustomOperatorError("custom option '\(key)': \(error)")
        }
    }

    /// A float option (`AsFloat`).
    func float(_ key: String) throws(CustomOperatorError) -> Float {
        guard let v = try value(key), !v.isNull else { return 0 }
        do {
            return try v.asFloat
        } catch {
            throw CustomOperatorError("custom option '\(key)': \(error)")
        }
    }

    /// A vector of `int32` options (`AsTypedVector`).
    func int32s(_ key: String) throws(CustomOperatorError) -> [Int] {
        guard let v = try value(key), !v.isNull else { return [] }
        do {
            let vector = try v.vector
            var out: [Int] = []
            out.reserveCapacity(vector.count)
            for i in 0..<vector.count {
                let n = try vector[i].asInt
                guard let exact = Int32(exactly: n) else { throw CustomOperatorError("custom option '\(key)'[\(i)] = \(n) is outside the int32 range") }
                out.append(Int(exact))
            }
            return out
        } catch let error as CustomOperatorError {
            throw error
        } catch {
            throw CustomOperatorError("custom option '\(key)': \(error)")
        }
    }
}

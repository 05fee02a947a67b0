import Foundation

/// Compact JSON for `--json` output, keys in a fixed order.
enum JSONOutput {
    static func string(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

import Foundation
import TFLiteTasks

/// Compact JSON for `--json` output, keys in a fixed order.
enum JSONOutput {
    static func string(_ value: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// A box as every vision command prints it.
    static func box(_ frame: PixelRect) -> [String: Any] {
        ["left": Double(frame.left), "top": Double(frame.top), "right": Double(frame.right), "bottom": Double(frame.bottom)]
    }
}

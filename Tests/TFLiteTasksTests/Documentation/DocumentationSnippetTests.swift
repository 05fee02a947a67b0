import Foundation
import Testing
import TestSupport

/// docs/custom-ops.md shows code that compiles: each of its Swift blocks is a passage of one
/// of the example programs in Examples/, which the package builds.
@Suite struct CustomOperatorDocumentationTests {
    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func everySwiftBlockIsInAnExample() throws {
        let doc = try String(contentsOf: Fixtures.root.appendingPathComponent("docs/custom-ops.md"), encoding: .utf8)
        var blocks: [[String]] = [], current: [String]? = nil
        for line in doc.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" { current = [] } else if line == "```", let block = current {
                blocks.append(block.map { $0.trimmingCharacters(in: .whitespaces) })
                current = nil
            } else {
                current?.append(String(line))
            }
        }
        #expect(blocks.count >= 4)
        let examples = Fixtures.root.appendingPathComponent("Examples")
        let sources = try FileManager.default.subpathsOfDirectory(atPath: examples.path).filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOf: examples.appendingPathComponent($0), encoding: .utf8) }.map(Self.lines)
        for block in blocks {
            let found = sources.contains { file in
                file.count >= block.count && (0...(file.count - block.count)).contains { Array(file[$0..<$0 + block.count]) == block }
            }
            #expect(found, "not in Examples/: \(block.first ?? "")")
        }
    }
}

import Foundation
import Testing
import TestSupport

/// The documentation shows code that compiles and runs: every Swift block of the README, of
/// docs/ and of the DocC catalogs is a passage, line for line (indentation aside), of one of
/// the programs in Examples/, which the package builds and `.ci/run` runs. Blocks that are
/// a package manifest's lines (first line `// Package.swift ...`) are not programs and are left
/// out.
@Suite struct DocumentationSnippetTests {
    static let root = Fixtures.root

    static func documents() throws -> [String] {
        let fm = FileManager.default
        var paths = ["README.md"]
        paths += try fm.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let sources = root.appendingPathComponent("Sources")
        for module in try fm.contentsOfDirectory(atPath: sources.path) {
            let moduleFolder = sources.appendingPathComponent(module)
            for entry in try fm.contentsOfDirectory(atPath: moduleFolder.path) where entry.hasSuffix(".docc") {
                let catalog = moduleFolder.appendingPathComponent(entry)
                paths += (fm.subpaths(atPath: catalog.path) ?? []).filter { $0.hasSuffix(".md") }
                    .map { "Sources/\(module)/\(entry)/\($0)" }
            }
        }
        return paths.sorted()
    }

    static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func swiftBlocks(in text: String) -> [[String]] {
        var blocks: [[String]] = [], current: [String]? = nil
        for line in lines(text) {
            if current == nil, line == "```swift" {
                current = []
            } else if line == "```", let block = current {
                if block.first?.hasPrefix("// Package.swift") != true { blocks.append(block) }
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static let examples: [(path: String, lines: [String])] = {
        let folder = root.appendingPathComponent("Examples")
        let files = (FileManager.default.subpaths(atPath: folder.path) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
        return files.map { ($0, lines((try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) ?? "")) }
    }()

    @Test func theDocumentsAreFound() throws {
        let documents = try Self.documents()
        for expected in ["README.md", "docs/tasks.md", "docs/custom-ops.md", "docs/remote-models.md", "Sources/Imaging/Imaging.docc/Imaging.md"] {
            #expect(documents.contains(expected))
        }
        #expect(Self.examples.count >= 8)
    }

    @Test(arguments: try documents())
    func everySwiftBlockIsInAnExample(_ document: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        for block in Self.swiftBlocks(in: text) {
            #expect(Self.isInAnExample(block),
                    "\(document): a Swift block is in no program of Examples/: \(block.prefix(3).joined(separator: " / "))")
        }
    }

    /// The check sees a one-character edit: the README's first block is found as it is and
    /// not once its last line changes.
    @Test func anEditedBlockIsNotFound() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        var block = try #require(Self.swiftBlocks(in: readme).first)
        #expect(Self.isInAnExample(block))
        block[block.count - 1] += " "
        #expect(!Self.isInAnExample(block))
    }

    static func isInAnExample(_ block: [String]) -> Bool {
        examples.contains { example in
            let file = example.lines
            return file.count >= block.count
                && (0...(file.count - block.count)).contains { Array(file[$0..<$0 + block.count]) == block }
        }
    }
}

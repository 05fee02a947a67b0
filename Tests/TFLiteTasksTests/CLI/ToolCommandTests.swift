import Foundation
import Testing
import TestSupport
import TFLiteRuntime

/// The version, `--json` on the data-printing commands, and `tflite run`'s summary line.
@Suite(.enabled(if: TFLiteExecutable.url != nil, "the tflite executable is built next to the tests"))
struct ToolCommandTests {
    static let sine = TaskFixtures.corpusPath("models/sine_float.tflite")

    @Test(arguments: [["--version"], ["version"]])
    func version(_ arguments: [String]) async throws {
        let run = try await TFLiteExecutable.run(arguments)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("tflite "))
        #expect(run.stdout.contains("\nkernels: "))
    }

    @Test(arguments: [["ops", "--json"], ["plan", sine, "--json"], ["bench", sine, "--runs", "2", "--threads", "1", "--json", "--profile-nodes"],
                      ["model", "list", "--json", "--cache-dir", "/tmp/no-such-cache"]])
    func jsonIsOneDocument(_ arguments: [String]) async throws {
        let run = try await TFLiteExecutable.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        if arguments[0] == "bench" {
            let bench = try #require(object as? [String: Any])
            #expect(bench["median_ms"] is Double)
            #expect((bench["nodes"] as? [Any])?.isEmpty == false)
        }
    }

    /// `inspect` names the kernel of every node of the main subgraph, in text and in JSON.
    @Test func inspectNamesEveryNodesKernel() async throws {
        let text = try await TFLiteExecutable.run(["inspect", Self.sine])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\nKernels (subgraph 0, "), "\(text.stdout)")
        #expect(text.stdout.contains("FULLY_CONNECTED  fully-connected.f32."), "\(text.stdout)")
        let json = try await TFLiteExecutable.run(["inspect", Self.sine, "--json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let nodes = try #require(root["node_kernels"] as? [[String: Any]])
        #expect(!nodes.isEmpty)
        #expect(nodes.allSatisfy { ($0["kernel"] as? String)?.isEmpty == false && $0["status"] as? String == "named" })
    }

    /// A model that loads but cannot be allocated: `inspect` still prints what it holds, and
    /// why its kernels are unknown.
    @Test func inspectSaysWhyKernelsAreUnknown() async throws {
        let model = Fixtures.root.appendingPathComponent("Tests/Fixtures/opzoo/models/opzoo_strings_broadcast_to.tflite").path
        let text = try await TFLiteExecutable.run(["inspect", model])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Operators (1 in all subgraphs):"), "\(text.stdout)")
        #expect(text.stdout.contains("\nKernels: unknown, the model could not be allocated: node 0 (BROADCAST_TO)"), "\(text.stdout)")
        let json = try await TFLiteExecutable.run(["inspect", model, "--json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(root["node_kernels"] == nil)
        #expect((root["node_kernels_error"] as? String)?.contains("BROADCAST_TO") == true)
    }

    /// A model whose weights lie in other files: inspected and run from its path, refused with
    /// the load error's words when a slice is misplaced.
    @Test func externalBuffers() async throws {
        let folder = Fixtures.root.appendingPathComponent("Tests/Fixtures/external")
        let file = { (name: String) in folder.appendingPathComponent(name).path }
        let inspect = try await TFLiteExecutable.run(["inspect", file("model.tflite")])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        // W (128 bytes), b (16), the int4 table (24) and c (16).
        #expect(inspect.stdout.contains("Weights: 184 bytes in 4 constant buffers"), "\(inspect.stdout)")

        let out = try TaskFixtures.temporaryDirectory().path
        let run = try await TFLiteExecutable.run(["run", file("model.tflite"), "--input", file("in0.npy"), "--input", file("in1.npy"),
                                                  "--output-dir", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try NPYArray(contentsOf: out + "/out1.npy") == NPYArray(contentsOf: file("out1.npy")))

        let bad = try await TFLiteExecutable.run(["run", file("hostile-unaligned.tflite"), "--input", file("in0.npy"),
                                                  "--input", file("in1.npy"), "--output-dir", out])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("error: cannot load model: invalid model: subgraph 0, tensor 2 'w': external buffer id 100"))
    }

    @Test func runSaysWhatItWrote() async throws {
        let dir = try TaskFixtures.temporaryDirectory()
        let input = dir.appendingPathComponent("in.npy")
        try NPYArray([Float(0.5)], dtype: .float32, shape: [1, 1]).write(to: input.path)
        let out = dir.appendingPathComponent("out/nested").path
        let run = try await TFLiteExecutable.run(["run", Self.sine, "--input", input.path, "--output-dir", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("wrote 1 output (out0.npy) to \(out) in "))
        #expect(FileManager.default.fileExists(atPath: out + "/out0.npy"))

        let file = dir.appendingPathComponent("a-file")
        try Data().write(to: file)
        let bad = try await TFLiteExecutable.run(["run", Self.sine, "--input", input.path, "--output-dir", file.path])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("error: cannot write into --output-dir \(file.path): it is a file"))
    }

    /// An installed copy (`PREFIX/bin/tflite` with `PREFIX/share/tflite/Models`, as
    /// Scripts/install.sh lays it out) finds its default model and photo from any working
    /// directory; without them it says where it looked.
    @Test func anInstalledCopyFindsItsModels() async throws {
        let fm = FileManager.default
        let prefix = try TaskFixtures.temporaryDirectory()
        let elsewhere = try TaskFixtures.temporaryDirectory()
        let binary = prefix.appendingPathComponent("bin/tflite")
        try fm.createDirectory(at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.copyItem(at: try #require(TFLiteExecutable.url), to: binary)

        let missing = try await TFLiteExecutable.run(["label"], executable: binary, currentDirectory: elsewhere)
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("error: the bundled Models/images/chelsea.png is not in the working directory"), "\(missing.stderr)")

        let models = prefix.appendingPathComponent("share/tflite/Models")
        try fm.createDirectory(at: models.appendingPathComponent("images"), withIntermediateDirectories: true)
        try fm.copyItem(at: Fixtures.models.appendingPathComponent("efficientnet_lite0.tflite"),
                        to: models.appendingPathComponent("efficientnet_lite0.tflite"))
        try fm.copyItem(at: Fixtures.models.appendingPathComponent("images/chelsea.png"),
                        to: models.appendingPathComponent("images/chelsea.png"))
        let installed = try await TFLiteExecutable.run(["label", "--json"], executable: binary, currentDirectory: elsewhere)
        #expect(installed.status == 0, "\(installed.stderr)")
        let labels = try #require(try JSONSerialization.jsonObject(with: Data(installed.stdout.utf8)) as? [[String: Any]])
        #expect(labels.first?["text"] as? String == "Egyptian cat")
    }
}

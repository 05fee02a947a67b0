import Foundation

/// `bytes` compressed by the system's `gzip`, independent of the code under test.
func gzipped(_ bytes: [UInt8]) throws -> [UInt8] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-\(UUID().uuidString)")
    try Data(bytes).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // -n: no name or time stamp, so the stream is the same every run.
    process.arguments = ["gzip", "-c", "-n", "-9", file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, output.count > 18 else {
        throw ServerError("gzip failed with status \(process.terminationStatus)")
    }
    return [UInt8](output)
}

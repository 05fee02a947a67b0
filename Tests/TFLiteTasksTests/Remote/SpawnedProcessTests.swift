import Foundation
import Testing

/// The child processes the tests start must not hold other tests' descriptors (a pipe end
/// inherited from a parallel test keeps that test waiting for end-of-file), and a child that
/// hangs or cannot start must end its test, not the run.
@Suite struct SpawnedProcessTests {
    #if os(Linux)
    @Test func theChildInheritsOnlyItsStandardStreams() async throws {
        // A descriptor open here, without close-on-exec, as another test's pipe would be.
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let child = try SpawnedProcess(URL(fileURLWithPath: "/bin/ls"), ["/proc/self/fd"])
        let run = await child.wait()
        #expect(run.exitStatus == 0)
        // ls's own listing of the folder adds one descriptor (3) to the three standard ones.
        let open = Set(run.stdout.split(separator: "\n").compactMap { Int32($0) })
        #expect(open.isSubset(of: [0, 1, 2, 3]), "inherited: \(open.subtracting([0, 1, 2, 3]).sorted())")
    }
    #endif

    /// A launch that keeps failing is thrown after its retries; reading the exit status of a
    /// process that never started traps in Foundation, and took the whole run down once.
    @Test func aLaunchThatFailsIsThrown() async throws {
        await #expect(throws: (any Error).self) {
            try await TFLiteExecutable.run(["label"], executable: URL(fileURLWithPath: "/nonexistent/tflite"))
        }
    }

    @Test func aChildPastItsLimitIsKilled() async throws {
        let child = try SpawnedProcess(URL(fileURLWithPath: "/bin/sleep"), ["30"])
        let run = await child.wait(limit: 0.5)
        #expect(run.exitStatus == nil, "ended by SIGKILL, not by exiting")
        #expect(run.wallSeconds < 10)
    }
}

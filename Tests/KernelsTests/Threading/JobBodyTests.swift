import Testing
@testable import Kernels

/// `JobBody` holds a non-escaping closure as the two machine words Swift passes it in, and
/// calls it back through them (see its comment). Swift does not promise that layout; these
/// tests are what would fail first, and loudly, if a compiler changed it.
@Suite struct JobBodyTests {
    @Test func itIsExactlyAClosuresTwoWords() {
        #expect(MemoryLayout<JobBody>.size == MemoryLayout<JobBody.Closure>.size)
        #expect(MemoryLayout<JobBody>.size == 2 * MemoryLayout<UnsafeRawPointer>.size)
    }

    /// A closure with captured state (so a real context word), called back several times
    /// through the words: every call reaches it with its arguments and its captures.
    @Test func itCallsTheClosureItWasMadeFrom() {
        var calls: [String] = []
        let offset = 100
        func submit(_ body: JobBody.Closure) {
            let job = JobBody(body)
            job(0, 0..<4)
            job(3, 7..<9)
        }
        submit { thread, range in calls.append("\(thread + offset) \(range.lowerBound)..<\(range.upperBound)") }
        #expect(calls == ["100 0..<4", "103 7..<9"])
    }

    nonisolated(unsafe) static var total = 0

    /// A closure without captures (no context) is called as well.
    @Test func itCallsAClosureWithoutContext() {
        func submit(_ body: JobBody.Closure) { JobBody(body)(2, 5..<6) }
        submit { thread, range in JobBodyTests.total = thread + range.count }
        #expect(JobBodyTests.total == 3)
    }
}

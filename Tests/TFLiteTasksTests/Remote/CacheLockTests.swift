import Foundation
import Testing
@testable import TFLiteTasks
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct CacheLockTests {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")

    /// A lock held through another descriptor (as another process would) is waited for, then
    /// reported, never waited on forever.
    @Test func aLockHeldElsewhereTimesOutWithACacheError() throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let other = open(file.path, O_RDWR | O_CREAT, 0o644)
        try #require(other >= 0)
        defer { close(other) }
        try #require(flock(other, LOCK_EX) == 0)
        var ran = false
        #expect(throws: ModelDownloadError.self) {
            try CacheLock.withLock(on: file, timeout: 0.1) { ran = true }
        }
        #expect(!ran)
        flock(other, LOCK_UN)
        try CacheLock.withLock(on: file, timeout: 0.1) { ran = true }
        #expect(ran)
    }

    /// Threads taking the lock through their own descriptors never overlap.
    @Test func holdersExcludeEachOther() async throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let inside = ManagedCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { [file] in
                    for _ in 0..<20 {
                        try CacheLock.withLock(on: file) {
                            inside.enter()
                            usleep(200)
                            inside.leave()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.maximum == 1)
        #expect(inside.entries == 160)
    }
}

/// Counts how many holders are inside a critical section at once.
final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var most = 0
    private var count = 0

    /// The most holders seen inside at once.
    var maximum: Int { lock.withLock { most } }
    /// How many times the section was entered.
    var entries: Int { lock.withLock { count } }

    func enter() {
        lock.withLock {
            current += 1
            count += 1
            most = max(most, current)
        }
    }

    func leave() {
        lock.withLock { current -= 1 }
    }
}

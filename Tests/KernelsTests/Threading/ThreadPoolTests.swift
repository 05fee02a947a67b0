import Testing
import Kernels
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ThreadPoolTests {
    /// Every index is visited exactly once, by ranges that tile 0..<count, for several pool
    /// sizes and counts (including fewer items than threads), over many jobs on one pool.
    @Test(arguments: [1, 2, 3, 5])
    func everyIndexRunsExactlyOnce(threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        #expect(pool.threadCount == threads)
        for count in [0, 1, 2, 3, 7, 64, 1001] {
            for _ in 0..<20 {
                let hits = TestBuffer(repeating: 0, count: max(count, 1))
                let p = hits.pointer
                pool.parallelFor(count: count) { range in
                    for i in range { p[i] += 1 }
                }
                #expect(hits.array.prefix(count).allSatisfy { $0 == 1 }, "count \(count)")
            }
        }
    }

    /// Thread indices stay within 0..<threadCount, so per-thread scratch is never shared:
    /// each chunk marks its slot busy and checks nobody else holds it.
    @Test func threadIndicesAreExclusive() {
        let pool = ThreadPool(threadCount: 4)
        let busy = TestBuffer(repeating: 0, count: 4), clashes = TestBuffer(repeating: 0, count: 4)
        let b = busy.pointer, c = clashes.pointer
        for _ in 0..<50 {
            pool.parallelFor(count: 40, chunks: 16) { thread, range in
                precondition(thread >= 0 && thread < 4)
                if b[thread] != 0 { c[thread] += 1 }
                b[thread] = 1
                var x: Float = 0
                for i in range { x += Float(i).squareRoot() }
                if x < 0 { c[thread] += 1 }
                b[thread] = 0
            }
        }
        #expect(clashes.array == [0, 0, 0, 0])
    }

    /// The first chunk of every job runs on the calling thread, as thread 0, so layers split
    /// alike keep their first rows on one core. A worker spins for the next job and would
    /// otherwise often claim chunk 0 before the caller does.
    @Test func theCallerRunsTheFirstChunk() {
        let pool = ThreadPool(threadCount: 2)
        let caller = pthread_self()
        let misplaced = TestBuffer(repeating: 0, count: 1)
        let m = misplaced.pointer
        for _ in 0..<2_000 {
            pool.parallelFor(count: 2, chunks: 2) { thread, range in
                guard range.lowerBound == 0 else { return }
                if thread != 0 || pthread_equal(pthread_self(), caller) == 0 { m[0] += 1 }
            }
        }
        #expect(misplaced.array == [0])
    }

    /// Workers receive the job's closure as its raw code and context words: whatever the
    /// closure captures (nothing, one object, several values, a variable), every chunk runs it
    /// with its captures intact.
    @Test func closuresOfEveryCaptureShapeRun() {
        final class Tally {
            let hits = TestBuffer(repeating: 0, count: 64)
        }
        let pool = ThreadPool(threadCount: 3)
        for _ in 0..<20 {
            pool.parallelFor(count: 64, chunks: 8) { _, _ in }

            let tally = Tally()
            pool.parallelFor(count: 64, chunks: 8) { _, range in
                for i in range { tally.hits.pointer[i] += 1 }
            }
            #expect(tally.hits.array.allSatisfy { $0 == 1 })

            let out = TestBuffer(repeating: 0, count: 64)
            let p = out.pointer, offset = 7, scale = 3
            pool.parallelFor(count: 64, chunks: 8) { thread, range in
                precondition(thread < 3)
                for i in range { p[i] = i * scale + offset }
            }
            #expect(out.array == (0..<64).map { $0 * 3 + 7 })

            var factor = 1
            factor += 4
            let scaled = TestBuffer(repeating: 0, count: 64)
            let q = scaled.pointer
            pool.parallelFor(count: 64) { range in
                for i in range { q[i] = i * factor }
            }
            #expect(scaled.array == (0..<64).map { $0 * 5 })
        }
    }

    /// Thousands of tiny jobs back to back: every index of every job runs exactly once, however
    /// late a worker wakes for a job.
    @Test func backToBackTinyJobs() {
        let pool = ThreadPool(threadCount: 3)
        let hits = TestBuffer(repeating: 0, count: 3)
        let p = hits.pointer
        for _ in 0..<10_000 {
            pool.parallelFor(count: 3) { range in
                for i in range { p[i] += 1 }
            }
        }
        #expect(hits.array == [10_000, 10_000, 10_000])
    }

    /// Back-to-back jobs of different sizes and closures: a worker that reads a job late must
    /// not run its closure on a chunk of the next one, nor a chunk twice.
    @Test func lateWorkersTakeNoChunkOfANewerJob() {
        let pool = ThreadPool(threadCount: 3)
        let five = TestBuffer(repeating: 0, count: 5), two = TestBuffer(repeating: 0, count: 2)
        let p5 = five.pointer, p2 = two.pointer
        for job in 0..<6_000 {
            if job % 2 == 0 {
                pool.parallelFor(count: 5, chunks: 5) { _, range in for i in range { p5[i] += 1 } }
            } else {
                pool.parallelFor(count: 2, chunks: 2) { _, range in for i in range { p2[i] += 1 } }
            }
        }
        #expect(five.array == Array(repeating: 3_000, count: 5))
        #expect(two.array == [3_000, 3_000])
    }

    /// Pauses longer than the spin make the workers park between jobs, and a chunk that sleeps
    /// makes the submitter park while it waits: jobs must still be picked up and finished.
    @Test func jobsAfterParkingStillRun() {
        let pool = ThreadPool(threadCount: 3)
        for round in 0..<6 {
            usleep(2_000)
            let hits = TestBuffer(repeating: 0, count: 12)
            let p = hits.pointer
            pool.parallelFor(count: 12, chunks: 6) { thread, range in
                if thread != 0 || round % 2 == 1 { usleep(1_000) }
                for i in range { p[i] += 1 }
            }
            #expect(hits.array.allSatisfy { $0 == 1 }, "round \(round)")
        }
    }

    /// A pool released right after a job shuts its workers down, even when a worker woke for that
    /// job but read the job's number only after the caller had finished it alone and published
    /// the shutdown (a worker taking the shutdown for a job parked forever, and the release
    /// waited for it). Three runners on a two-core machine keep the workers preempted at such
    /// points (with that bug, two runs in three hung here). The runners cycle for about four
    /// seconds (fewer cycles under an emulator), then must all return: a release that hangs
    /// keeps its runner from ever finishing.
    @Test func releasingAPoolRightAfterAJobNeverHangs() {
        final class Progress: @unchecked Sendable {
            let cycles = Atomic<Int>(0)
            let stop = Atomic<Bool>(false)
            let finishedRunners = Atomic<Int>(0)
        }
        let progress = Progress()
        let runners = 3
        for _ in 0..<runners {
            Thread {
                while !progress.stop.load(ordering: .acquiring) {
                    // The worker starts, then spins between the jobs; its wake-up for the last
                    // one races the release.
                    let pool = ThreadPool(threadCount: 2)
                    for _ in 0..<10 { pool.parallelFor(count: 2, chunks: 2) { _, _ in } }
                    progress.cycles.add(1, ordering: .relaxed)
                }
                progress.finishedRunners.add(1, ordering: .releasing)
            }.start()
        }
        var waitedMs = 0
        while progress.cycles.load(ordering: .relaxed) < 300_000 && waitedMs < 4_000 {
            usleep(10_000)
            waitedMs += 10
        }
        progress.stop.store(true, ordering: .releasing)
        waitedMs = 0
        while progress.finishedRunners.load(ordering: .acquiring) < runners && waitedMs < 60_000 {
            usleep(10_000)
            waitedMs += 10
        }
        let cycles = progress.cycles.load(ordering: .relaxed)
        #expect(cycles > 0)
        #expect(progress.finishedRunners.load(ordering: .acquiring) == runners,
                "a pool's release hung after \(cycles) cycles")
    }

    @Test func zeroOrNegativeThreadCountMeansInline() {
        #expect(ThreadPool(threadCount: 0).threadCount == 1)
        #expect(ThreadPool(threadCount: -3).threadCount == 1)
    }

    @Test(arguments: [1, 2, 4])
    func smallWorkRunsInlineLargeWorkSplits(threads: Int) {
        let pool = ThreadPool(threadCount: threads)
        #expect(pool.chunks(forWork: 0) == 1)
        #expect(pool.chunks(forWork: ThreadPool.minimumParallelWork - 1) == 1)
        #expect(pool.chunks(forWork: ThreadPool.minimumParallelWork) == threads)
    }
}
